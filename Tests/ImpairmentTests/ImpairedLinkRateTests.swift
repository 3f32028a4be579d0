import Impairment
import RTCBase
import XCTest

/// 1000 kbps carries one 1000-byte packet every 8 ms.
final class ImpairedLinkRateTests: XCTestCase {
    private func limited(queuePackets: Int? = nil, queueBytes: Int? = nil, bucketBytes: Int = 0) -> ImpairmentProfile {
        var profile = ImpairmentProfile()
        profile.rateKbps = 1000
        profile.queuePackets = queuePackets
        profile.queueBytes = queueBytes
        profile.bucketBytes = bucketBytes
        return profile
    }

    func testTwiceTheRateDeliversExactlyTheRateAndDropsTheExcess() {
        // 2500 packets, one every 4 ms for 10 s: twice what the link carries.
        let (deliveries, counters) = drive(limited(queuePackets: 20), count: 2_500, interval: .milliseconds(4))
        let tenSeconds = Instant.zero + .seconds(10)
        let inRun = deliveries.filter { $0.deliverAt < tenSeconds }
        XCTAssertEqual(inRun.count, 1_250)  // 10 s / 8 ms
        XCTAssertTrue(zip(deliveries, deliveries.dropFirst()).allSatisfy { $1.deliverAt - $0.deliverAt == .milliseconds(8) })
        // At the last send the queue is full: 20 packets leave after the run.
        XCTAssertEqual(deliveries.count - inRun.count, 20)
        XCTAssertEqual(counters.droppedByQueue, 2_500 - 1_270)
        XCTAssertEqual(counters.droppedByLoss, 0)
        // No packet waits longer than a full queue takes to drain.
        XCTAssertLessThanOrEqual(deliveries.map(\.delayMs).max() ?? 0, 20 * 8)
    }

    func testHalfTheRatePassesEverythingWithoutQueueingDelay() {
        let (deliveries, counters) = drive(limited(queuePackets: 5), count: 1_000, interval: .milliseconds(16))
        XCTAssertEqual(deliveries.count, 1_000)
        XCTAssertEqual(counters.droppedByQueue, 0)
        XCTAssertTrue(deliveries.allSatisfy { $0.deliverAt == $0.sentAt })
    }

    func testQueueByteLimitBoundsQueueingDelay() {
        let (deliveries, counters) = drive(limited(queueBytes: 5_000), count: 1_000, interval: .milliseconds(2))
        // Five 1000-byte packets fit, so the longest wait is five transmissions.
        XCTAssertEqual(deliveries.map(\.delayMs).max() ?? 0, 5 * 8)
        XCTAssertEqual(counters.droppedByQueue + deliveries.count, 1_000)
    }

    func testBucketDepthPassesABurstAtOnceThenPacesAtTheRate() {
        var link = ImpairedLink<Int>(profile: limited(bucketBytes: 5_000), seed: 1)
        let deliveries = drive(&link, count: 10, interval: .zero)
        let times = deliveries.map { $0.deliverAt.milliseconds(since: .zero) }
        XCTAssertEqual(times, [0, 0, 0, 0, 0, 8, 16, 24, 32, 40])
    }

    func testTransmitWireSizeCountsIPAndUDPHeaders() throws {
        let destination = try XCTUnwrap(SocketAddress("192.0.2.1:5000"))
        var link = ImpairedLink<Transmit>(profile: limited(), seed: 1)
        let datagram = Transmit(destination: destination, payload: [UInt8](repeating: 0, count: 972))  // + 28 = 1000
        link.send(datagram, now: .zero)
        link.send(datagram, now: .zero)
        XCTAssertEqual(link.pollDelivery(now: .zero)?.deliverAt, .zero)
        XCTAssertNil(link.pollDelivery(now: .zero))
        XCTAssertEqual(link.pollTimeout(), .zero + .milliseconds(8))
        XCTAssertEqual(link.pollDelivery(now: .zero + .milliseconds(8))?.packet, datagram)
    }
}
