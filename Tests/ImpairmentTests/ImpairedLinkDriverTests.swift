import Impairment
import RTCBase
import XCTest

final class ImpairedLinkDriverTests: XCTestCase {
    /// A virtual-time driver that wakes at each send and at each `pollTimeout` gets every
    /// packet exactly at its delivery time, and the same packets as draining at the end.
    func testPollingAtTimeoutsDeliversEachPacketExactlyWhenDue() {
        var profile = ImpairmentProfile()
        profile.delayMs = 20
        profile.jitterMs = 10
        profile.reorder = true
        profile.duplicatePct = 5
        profile.lossPct = 2
        profile.rateKbps = 2_000
        profile.queuePackets = 8
        let count = 3_000
        let interval = Duration.milliseconds(3)

        var link = ImpairedLink<Int>(profile: profile, seed: 77)
        var live: [Delivery] = []
        var nextSend = 0
        var now = Instant.zero
        while nextSend < count || link.pollTimeout() != nil {
            let sendAt = nextSend < count ? Instant.zero + interval * nextSend : Instant(nanoseconds: .max)
            now = min(sendAt, link.pollTimeout() ?? sendAt)
            while let (index, deliverAt) = link.pollDelivery(now: now) {
                XCTAssertEqual(deliverAt, now)
                live.append(Delivery(index: index, sentAt: .zero + interval * index, deliverAt: deliverAt))
            }
            if now == sendAt {
                link.send(nextSend, size: 1_200, now: now)
                nextSend += 1
            }
        }
        XCTAssertEqual(link.inFlight, 0)
        XCTAssertNil(link.pollTimeout())

        var batch = ImpairedLink<Int>(profile: profile, seed: 77)
        XCTAssertEqual(live, drive(&batch, count: count, interval: interval, size: 1_200))
        XCTAssertEqual(link.counters, batch.counters)
        let counters = link.counters
        XCTAssertEqual(counters.delivered, counters.sent - counters.droppedByLoss - counters.droppedByQueue + counters.duplicated)
    }
}
