import Foundation
import Metrics
import Report
import WebRTCTestKit
import XCTest

/// `rtcswarm run` of the shipped SRS scenarios against the SRS named by `SRS_URL`, as
/// users run them: publish and play over `/rtc/v1/` and over WHIP/WHEP, loss on the
/// SRS-to-player leg, and a refused second publisher in the peer's record.
final class SRSRunTests: XCTestCase {
    func testPublisherAndPlayersThroughTheJSONAPI() throws {
        try publishAndPlay("srs-publish-play.json5", role: "`rtcswarm run` publisher + players over /rtc/v1/ (srs-publish-play.json5)")
    }

    func testWhipPublisherAndWhepPlayers() throws {
        try publishAndPlay("srs-whip-whep.json5", role: "`rtcswarm run` WHIP publisher + WHEP players, DELETE at the end (srs-whip-whep.json5)")
    }

    /// The generic WHIP/WHEP scenario, pointed at SRS's endpoints by URL alone.
    func testTheGenericWhipWhepScenarioAgainstSRSsEndpoints() throws {
        let url = try SRSUnderTest.sharedURL()
        try publishAndPlay("whip-whep.json5", role: "`rtcswarm run` of the generic whip-whep.json5 at SRS's WHIP/WHEP URLs",
                           environment: ["WHIP_URL": "\(url)/rtc/v1/whip/?app=live&stream={stream}",
                                         "WHEP_URL": "\(url)/rtc/v1/whep/?app=live&stream={stream}"],
                           knowsItIsSRS: false)
    }

    /// One publisher and three players, every player receiving the published size, and
    /// (when the target is `srs`, which the runner polls) SRS's own figures on the run's time axis.
    private func publishAndPlay(_ scenario: String, role: String, environment: [String: String] = [:], knowsItIsSRS: Bool = true) throws {
        let cell = InteropRecorder.cell(self, target: "SRS", role: role, codec: "H.264+Opus")
        let run = try SRSRun.run(scenario, url: SRSUnderTest.sharedURL(),
                                 environment: environment.merging(["DURATION_S": "10", "PLAYERS": "3"]) { $1 })
        cell.measured(run.report)
        XCTAssertEqual(run.peers.count, 4)
        XCTAssertEqual(run.outcome, .passed, run.failures)
        for video in try run.playerVideo() {
            XCTAssertGreaterThan(video.framesReceived, 100)
            XCTAssertEqual(video.resolutionSurvival, 100)
        }
        let metrics = try XCTUnwrap(run.report.cells.first?.metrics)
        print("srs: \(scenario): setup p95 \(metrics.value(at: MetricAddress(.setupMs, .p95)) ?? -1) ms, "
              + "first_frame p95 \(metrics.value(at: MetricAddress(.firstFrameMs, .p95)) ?? -1) ms")
        guard knowsItIsSRS else { return }
        // SRS's own count of the run's stream, sampled while all four were up.
        let samples = try XCTUnwrap(run.report.cells.first?.serverSamples, "SRS's API was sampled")
        XCTAssertEqual(samples.compactMap { $0.values["run_publishers"] }.max(), 1)
        XCTAssertEqual(samples.compactMap { $0.values["run_players"] }.max(), 3)
        // At least ours: SRS keeps the clients of streams that earlier tests left in its count for a while.
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(samples.last?.values["clients"]), 4)
        XCTAssertNotNil(samples.last?.values["cpu_pct"])
        XCTAssertEqual(run.report.targetVersion?.hasPrefix("SRS "), true, run.report.targetVersion ?? "no version")
    }

    /// 5 % loss injected on what the H.264 players receive (`SRSPlayerLoss`), 3 players of 720p30.
    func testPlayersMeasureTheLossInjectedOnTheSRSToPlayerLeg() throws {
        try SRSPlayerLoss.check(self, scenario: "srs-publish-play.json5", environment: ["PLAYERS": "3"],
                                role: "players with 5 % loss on SRS → player: first-pass vs residual loss, NACK recovery", cell: "H.264+Opus")
    }

    /// A second publisher of a live stream: SRS refuses it (`{"code":400}`, RtcStreamBusy in
    /// its log) and that peer's record says so in SRS's words; the run fails.
    func testASecondPublisherOfALiveStreamFailsInSRSsWords() throws {
        InteropRecorder.cell(self, target: "SRS", role: "`rtcswarm run`: a second publisher of a live stream is refused, quoted", codec: "H.264+Opus")
        let run = try SRSRun.run("srs-publish-play.json5", url: SRSUnderTest.sharedURL(), environment: ["DURATION_S": "5", "PLAYERS": "1"],
                                 overrides: ["groups[1].role=publisher"])
        let publishers = run.peers.filter { $0.role == "publisher" }.sorted { $0.startedAtMs < $1.startedAtMs }
        XCTAssertEqual(publishers.count, 2)
        XCTAssertEqual(publishers.first?.outcome, .completed, run.failures)
        let refused = try XCTUnwrap(publishers.last)
        XCTAssertEqual(refused.outcome, .failed)
        XCTAssertEqual(refused.failedPhase, "signaling")
        XCTAssertEqual(refused.failureReason?.contains(#"SRS answered code 400: {"code":400}"#), true, refused.failureReason ?? "no reason")
        XCTAssertNotEqual(run.outcome, .passed)
    }
}
