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

    /// 5 % loss injected on what the players receive. SRS answers a NACK by resending the
    /// original packet (same SSRC and sequence number), so the plain RFC 3550 count would
    /// read about 0 %; the first-pass `loss_pct` must read the injected 5 %, residual loss
    /// about 0, and the NACKed packets must come back.
    func testPlayersMeasureTheLossInjectedOnTheSRSToPlayerLeg() throws {
        let cell = InteropRecorder.cell(self, target: "SRS", role: "players with 5 % loss on SRS → player: first-pass vs residual loss, NACK recovery",
                                        codec: "H.264+Opus")
        let run = try SRSRun.run("srs-publish-play.json5", url: SRSUnderTest.sharedURL(), environment: ["DURATION_S": "12", "PLAYERS": "3"],
                                 overrides: ["groups[1].impairment.receive.loss_pct=5"])
        cell.measured(run.report)
        XCTAssertEqual(run.peers.filter { $0.outcome == .failed }.count, 0, run.failures)
        let video = try run.playerVideo()
        let expected = video.map(\.packetsExpected).reduce(0, +)
        let received = video.map(\.packetsReceived).reduce(0, +)
        let recovered = video.compactMap(\.packetsRecovered).reduce(0, +)
        let firstPassLost = expected - received + recovered
        // Binomial: at ~10,000 video packets the standard deviation of 5 % is 0.22 points; 4 of them.
        let firstPass = Double(firstPassLost) * 100 / Double(expected)
        let tolerance = 4 * (5.0 * 95.0 / Double(expected)).squareRoot()
        XCTAssertEqual(firstPass, 5, accuracy: tolerance, "first-pass video loss over \(expected) packets")
        for stream in video {
            XCTAssertEqual(stream.lossPct, 5, accuracy: 2.5, "a player's first-pass video loss")
            XCTAssertLessThanOrEqual(stream.residualLossPct, 0.5, "SRS resent what the player NACKed")
            let nacked = try XCTUnwrap(stream.packetsNacked)
            XCTAssertGreaterThanOrEqual(nacked, try XCTUnwrap(stream.packetsRecovered), "every recovery was asked for")
        }
        XCTAssertGreaterThanOrEqual(Double(recovered), Double(firstPassLost) * 0.9, "NACKed packets that SRS resent and arrived")
        print("srs: 5 % on SRS→players: first-pass \(firstPass) % of \(expected) video packets, recovered \(recovered) of \(firstPassLost), "
              + "residual \(Double(expected - received) * 100 / Double(expected)) %, NACKed \(video.compactMap(\.packetsNacked).reduce(0, +))")
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
