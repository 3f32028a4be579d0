@testable import Runtime
import Report
import XCTest

/// The time series' jitter percentiles are over every live stream of every worker, video
/// and audio apart: merged from the workers' histograms, never from their percentiles.
final class LiveJitterTests: XCTestCase {
    func testPercentilesAreOverTheUnionOfTheWorkersLiveStreams() throws {
        var one = ReceiveTotals(), two = ReceiveTotals()
        // Worker 1 receives 3 video streams at 1 ms, worker 2 one at 9 ms and audio at 4 ms.
        one.liveVideoJitterMs = [1, 1, 1]
        (two.liveVideoJitterMs, two.liveAudioJitterMs) = ([9], [4])
        let workers = try [XCTUnwrap(LiveJitter(one)), XCTUnwrap(LiveJitter(two))]
        var sample = TimeSample(tS: 1, connectingPeers: 0, connectedPeers: 0, failedPeers: 0, receiveKbps: 0, sendKbps: 0, lagP99Ms: 0)
        LiveJitter.fill(&sample, from: workers)
        XCTAssertEqual(try XCTUnwrap(sample.videoJitterP50Ms), 1, accuracy: 0.001, "3 of the 4 streams at 1 ms (the mean of the workers' medians would be 5)")
        XCTAssertEqual(try XCTUnwrap(sample.videoJitterP95Ms), 9, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(sample.audioJitterP50Ms), 4, accuracy: 0.01)
        XCTAssertNil(LiveJitter(ReceiveTotals()), "a worker receiving nothing sends no jitter")
    }

    func testTheStreamsJitterIsNotSentAsAListButEndedPeersDoNotKeepIt() throws {
        var totals = ReceiveTotals(packetsExpected: 10)
        totals.liveVideoJitterMs = [2.5]
        let decoded = try JSONDecoder().decode(ReceiveTotals.self, from: JSONEncoder().encode(totals))
        XCTAssertEqual(decoded.packetsExpected, 10)
        XCTAssertEqual(decoded.liveVideoJitterMs, [])
        XCTAssertEqual((totals + totals).liveVideoJitterMs, [2.5, 2.5], "live calls' streams add up")
    }
}
