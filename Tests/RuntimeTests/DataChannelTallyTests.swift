@testable import Runtime
import RTCBase
import XCTest

final class DataChannelTallyTests: XCTestCase {
    private func message(_ sequence: UInt64, sentMs: Int64, size: Int = 100) -> [UInt8] {
        DataMessageStamp(sequence: sequence, sentAt: Instant(nanoseconds: sentMs * 1_000_000)).message(size: size)
    }

    func testStampRoundTripsAndPadsToTheSize() {
        let bytes = message(0x0102_0304_0506_0708, sentMs: 42, size: 40)
        XCTAssertEqual(bytes.count, 40)
        XCTAssertEqual(Array(bytes[0..<8]), [1, 2, 3, 4, 5, 6, 7, 8])
        XCTAssertEqual(bytes[16...].allSatisfy { $0 == 0 }, true)
        XCTAssertEqual(DataMessageStamp(reading: bytes), DataMessageStamp(sequence: 0x0102_0304_0506_0708, sentAt: Instant(nanoseconds: 42_000_000)))
        XCTAssertNil(DataMessageStamp(reading: Array(bytes[0..<15])))
    }

    /// Sequence 0, 1, 3, 2, 5 arrive (4 never does), each 10 ms after it was sent except 3,
    /// which took 30 ms; arrivals at 10, 20, 40, 45, 60 ms: 5 received, 1 lost (4),
    /// 1 reordered (2 after 3), mean latency (10 + 10 + 30 + 15 + 10) / 5 = 15 ms, and
    /// 500 bytes over 50 ms = 80 kbps.
    func testCountsLossReorderingLatencyAndThroughputExactly() {
        var tally = DataChannelTally()
        let arrivals: [(UInt64, Int64, Int64)] = [(0, 0, 10), (1, 10, 20), (3, 10, 40), (2, 30, 45), (5, 50, 60)]
        var latencies: [Double] = []
        for (sequence, sent, arrived) in arrivals {
            latencies += [tally.receive(message(sequence, sentMs: sent), now: Instant(nanoseconds: arrived * 1_000_000), halved: false)].compactMap { $0 }
        }
        XCTAssertEqual(latencies, [10, 10, 30, 15, 10])
        XCTAssertEqual([tally.received, tally.lost, tally.reordered, tally.unreadable], [5, 1, 1, 0])
        XCTAssertEqual(tally.latencyMeanMs, 15)
        XCTAssertEqual(tally.latencyMaxMs, 30)
        XCTAssertEqual(tally.throughputKbps ?? 0, 80, accuracy: 1e-9)
        XCTAssertNil(tally.receive([1, 2, 3], now: .zero, halved: false))
        XCTAssertEqual(tally.unreadable, 1)
    }

    func testAnEchoCountsHalfItsRoundTrip() {
        var tally = DataChannelTally()
        XCTAssertEqual(tally.receive(message(0, sentMs: 100), now: Instant(nanoseconds: 130_000_000), halved: true), 15)
        XCTAssertNil(tally.throughputKbps)
        XCTAssertEqual(tally.lost, 0)
    }

    /// A receiver that joined at message 40 (a VideoRoom player): 40, 41, 43 arrive. From 0
    /// that is 41 lost; counted from the lowest received, 1 (42).
    func testAReceiverJoiningInProgressCountsLossFromItsFirstMessage() {
        var fromZero = DataChannelTally(), fromLowest = DataChannelTally(countsFromLowest: true)
        for sequence: UInt64 in [40, 41, 43] {
            _ = fromZero.receive(message(sequence, sentMs: 0), now: .zero, halved: false)
            _ = fromLowest.receive(message(sequence, sentMs: 0), now: .zero, halved: false)
        }
        XCTAssertEqual(fromZero.lost, 41)
        XCTAssertEqual(fromLowest.lost, 1)
    }
}
