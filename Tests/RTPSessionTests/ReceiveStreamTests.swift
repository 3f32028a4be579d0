import RTCBase
import RTP
@testable import RTPSession
import WebRTCTestKit
import XCTest

final class ReceiveStreamTests: XCTestCase {
    private func stream(nack: Bool = false, probation: Int = 1) -> ReceiveStream {
        ReceiveStream(configuration: .init(ssrc: 7, clockRate: 90_000, nack: nack, probation: probation))
    }

    private func ms(_ value: Int64) -> Instant { Instant(nanoseconds: value * 1_000_000) }

    func testSequenceWrapAt65535ExtendsWithACycle() {
        var receiver = stream()
        for (index, sequence) in ((65_530...65_535).map { UInt16($0) } + (0...9)).enumerated() {
            XCTAssertTrue(receiver.receive(sequenceNumber: sequence, timestamp: UInt32(index) * 3000, now: ms(Int64(index))))
        }
        let statistics = receiver.snapshot(now: ms(20))
        XCTAssertEqual(statistics.packetsExpected, 16)
        XCTAssertEqual(statistics.packetsReceived, 16)
        XCTAssertEqual(statistics.packetsLost, 0)
        XCTAssertEqual(receiver.makeReportBlock(now: ms(20))?.extendedHighestSequence, 0x1_0009)
    }

    func testInjectedLossPatternGivesExactCountsAndBursts() {
        var receiver = stream()
        // 1000 packets from 65000 (wrapping); lost: every 10th (index % 10 == 3), and a
        // burst of 5 at 500...504 (503 is in both). 100 + 4 = 104 lost in 103 episodes
        // (the burst is one), longest run 5.
        var lostIndices = Set((0..<1000).filter { $0 % 10 == 3 })
        lostIndices.formUnion(500...504)
        for index in 0..<1000 where !lostIndices.contains(index) {
            _ = receiver.receive(sequenceNumber: UInt16(truncatingIfNeeded: 65_000 + index), timestamp: 0, now: ms(Int64(index)))
        }
        let statistics = receiver.snapshot(now: ms(1000))
        XCTAssertEqual(lostIndices.count, 104)
        XCTAssertEqual(statistics.packetsExpected, 1000, "first (index 0) to highest (index 999)")
        XCTAssertEqual(statistics.packetsLost, 104)
        XCTAssertEqual(statistics.packetsReceived, 896)
        XCTAssertEqual(statistics.burstMax, 5)
        XCTAssertEqual(statistics.burstEpisodes, 100)
        XCTAssertEqual(statistics.lossPercent, 10.4, accuracy: 1e-9)
        XCTAssertEqual(statistics.residualLossPercent, statistics.lossPercent, "no NACK: nothing recovered")
    }

    func testReorderedAndDuplicatedPacketsCountOnce() {
        var receiver = stream()
        let order: [UInt16] = [100, 102, 101, 101, 103, 105, 104, 102, 106, 100, 107]
        var accepted = 0
        for (index, sequence) in order.enumerated()
        where receiver.receive(sequenceNumber: sequence, timestamp: 0, now: ms(Int64(index))) {
            accepted += 1
        }
        let statistics = receiver.snapshot(now: ms(20))
        XCTAssertEqual(accepted, 8)
        XCTAssertEqual(statistics.duplicates, 3)
        XCTAssertEqual(statistics.packetsExpected, 8)
        XCTAssertEqual(statistics.packetsReceived, 8)
        XCTAssertEqual(statistics.packetsLost, 0)
        XCTAssertEqual(statistics.burstEpisodes, 0)
    }

    func testJitterMatchesRfc3550ComputedIndependently() {
        var receiver = stream()
        var generator = SeededGenerator(seed: 77)
        // 30 fps video at 90 kHz from a random initial timestamp near the 32-bit wrap; each
        // packet sent every 33.3 ms and delayed 20-60 ms.
        let firstTimestamp: UInt32 = 0xFFFF_0000
        var oracle = RFC3550JitterOracle(clockRate: 90_000)
        for index in 0..<300 {
            let sendNs = Int64(index) * 33_333_333
            let delayNs = 20_000_000 + Int64(generator.nextUnit() * 40_000_000)
            let arrival = Instant(nanoseconds: 1_000_000_000 + sendNs + delayNs)
            let timestamp = firstTimestamp &+ UInt32(index * 3000)
            _ = receiver.receive(sequenceNumber: UInt16(index), timestamp: timestamp, now: arrival)
            // Unwrapped send timestamps: the oracle never sees the 32-bit wrap the stream handles.
            oracle.add(arrivalSeconds: Double(arrival.nanoseconds) / 1e9, timestamp: Double(index * 3000))
        }
        let expected = oracle.jitter
        let statistics = receiver.snapshot(now: ms(20_000))
        XCTAssertEqual(statistics.jitter, expected, accuracy: 1e-6)
        XCTAssertEqual(statistics.jitterMs, expected / 90, accuracy: 1e-6)
        XCTAssertGreaterThan(statistics.jitterMs, 5, "a 40 ms delay spread gives several ms of jitter")
        XCTAssertEqual(receiver.makeReportBlock(now: ms(20_000))?.jitter, UInt32(expected))
    }

    func testProbationAndConfirmedJumpRestart() {
        var receiver = stream(probation: 2)
        XCTAssertTrue(receiver.receive(sequenceNumber: 10, timestamp: 0, now: ms(0)))
        XCTAssertNil(receiver.makeReportBlock(now: ms(0)), "one packet: still in probation")
        _ = receiver.receive(sequenceNumber: 11, timestamp: 0, now: ms(1))
        _ = receiver.receive(sequenceNumber: 12, timestamp: 0, now: ms(2))
        XCTAssertEqual(receiver.snapshot(now: ms(3)).packetsReceived, 3, "probation packets count once valid")
        // A jump of 20000 is ignored once, then confirmed by the next packet in sequence.
        _ = receiver.receive(sequenceNumber: 20_012, timestamp: 0, now: ms(3))
        XCTAssertEqual(receiver.snapshot(now: ms(3)).packetsNotCounted, 1)
        _ = receiver.receive(sequenceNumber: 20_013, timestamp: 0, now: ms(4))
        _ = receiver.receive(sequenceNumber: 20_014, timestamp: 0, now: ms(5))
        let statistics = receiver.snapshot(now: ms(6))
        XCTAssertEqual(statistics.restarts, 1)
        XCTAssertEqual(statistics.packetsExpected, 6)
        XCTAssertEqual(statistics.packetsReceived, 6)
    }

    /// A stream's first packet makes it valid by default: the one lost right after it is
    /// NACKed and counted lost (with a probation of two it restarted the probation, so
    /// the stream began after it and its frame was lost with 0 % residual loss).
    func testAPacketLostRightAfterTheFirstIsNackedAndCountedLost() {
        var receiver = ReceiveStream(configuration: .init(ssrc: 7, clockRate: 90_000, nack: true))
        for sequence: UInt16 in [500, 502, 503] { _ = receiver.receive(sequenceNumber: sequence, timestamp: 0, now: ms(0)) }
        XCTAssertEqual(receiver.dueNacks(now: ms(10), roundTripTime: .milliseconds(8)), [501])
        let statistics = receiver.snapshot(now: ms(10))
        XCTAssertEqual([statistics.packetsExpected, statistics.packetsReceived, statistics.packetsLost], [4, 3, 1])
    }

    func testLongRunPastTheHistoryWindowKeepsCounting() {
        var receiver = stream(probation: 2)
        for index in 0..<10_000 where index != 6_000 {
            _ = receiver.receive(sequenceNumber: UInt16(truncatingIfNeeded: 40_000 + index), timestamp: 0, now: ms(Int64(index)))
        }
        let statistics = receiver.snapshot(now: ms(10_000))
        XCTAssertEqual(statistics.packetsExpected, 10_000)
        XCTAssertEqual(statistics.packetsReceived, 9_999)
        XCTAssertEqual(statistics.duplicates, 0)
        XCTAssertEqual(statistics.burstEpisodes, 1)
    }

    func testHugeGapsAndOldSenderReportsDoNotTrap() {
        var receiver = stream()
        _ = receiver.receive(sequenceNumber: 1, timestamp: 0, now: ms(0))
        // Two days later, with a timestamp that went backwards by 2^31.
        _ = receiver.receive(sequenceNumber: 2, timestamp: 0x8000_0000, now: ms(172_800_000))
        receiver.receivedSenderReport(
            SenderReport(ssrc: 7, ntpTimestamp: 1 << 32, rtpTimestamp: 0, packetCount: 0, octetCount: 0), now: ms(0))
        let block = receiver.makeReportBlock(now: ms(172_800_000))
        XCTAssertEqual(block?.delaySinceLastSenderReport, UInt32.max, "DLSR saturates past 18 hours")
        // D = 172,800 s x 90 kHz + 2^31 (the timestamp went back); J = D / 16.
        XCTAssertEqual(block?.jitter, 1_106_217_728)
    }

    func testReportBlockFractionAndCumulativeLostPerInterval() {
        var receiver = stream()
        for sequence in UInt16(0)..<100 where sequence % 4 != 1 {
            _ = receiver.receive(sequenceNumber: sequence, timestamp: 0, now: ms(Int64(sequence)))
        }
        let first = receiver.makeReportBlock(now: ms(100))
        XCTAssertEqual(first?.cumulativeLost, 25)
        XCTAssertEqual(first?.fractionLost, 64, "25 of 100: 64/256")
        for sequence in UInt16(100)..<200 where sequence % 10 != 0 {
            _ = receiver.receive(sequenceNumber: sequence, timestamp: 0, now: ms(Int64(sequence)))
        }
        let second = receiver.makeReportBlock(now: ms(200))
        XCTAssertEqual(second?.cumulativeLost, 35)
        XCTAssertEqual(second?.fractionLost, 25, "10 of 100 this interval: 2560/100 = 25")
        XCTAssertEqual(second?.extendedHighestSequence, 199)
    }
}
