import Impairment
import RTCBase
@testable import RTPSession
import XCTest

/// Loss episodes as a receiver counts them, against the Gilbert model that made them: with
/// loss rate 5 % and mean burst length 3 packets (`burst_length: 3`), the bad state lasts
/// 1/r = 3 packets on average, so lost / episodes must come out near 3.
final class LossEpisodeTests: XCTestCase {
    func testMeanBurstLengthIsTheModelsOneOverR() {
        var profile = ImpairmentProfile()
        profile.lossPct = 5
        profile.burstLength = 3
        var link = ImpairedLink<Int>(profile: profile, seed: 77)
        let start = Instant(nanoseconds: 1_000_000_000)
        let count = 200_000
        for index in 0..<count { link.send(index, size: 200, now: start + .milliseconds(Int64(index))) }
        var receiver = ReceiveStream(configuration: .init(ssrc: 9, clockRate: 90_000, nack: false))
        let end = start + .seconds(Int64(count / 1000 + 10))
        while let (index, deliverAt) = link.pollDelivery(now: end) {
            _ = receiver.receive(sequenceNumber: UInt16(truncatingIfNeeded: index), timestamp: UInt32(index * 3000), now: deliverAt)
        }
        let statistics = receiver.snapshot(now: end)
        let lost = Double(statistics.packetsLost)
        let meanBurst = lost / Double(statistics.burstEpisodes)
        print("Gilbert 5 %, burst 3: lost \(Int(lost)) of \(statistics.packetsExpected) in \(statistics.burstEpisodes) episodes, mean \(meanBurst)")
        XCTAssertEqual(lost / Double(statistics.packetsExpected) * 100, 5, accuracy: 0.5)
        // Bursts are geometric with mean 3 (sd about 2.45): over ~3,300 episodes the mean
        // is within 4 standard errors, about 0.17.
        XCTAssertEqual(meanBurst, 3, accuracy: 0.2)
        XCTAssertGreaterThanOrEqual(statistics.burstMax, 10, "a geometric burst of 3 reaches 10 in thousands of episodes")
    }
}
