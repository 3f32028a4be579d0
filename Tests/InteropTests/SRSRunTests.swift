import Foundation
import Metrics
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// `rtcswarm run Scenarios/srs-publish-play.json5` against a real SRS named by `SRS_URL`:
/// an H.264 publisher and players of its stream, every player receiving the published
/// resolution. Without `SRS_URL` it skips with the reason (SRS runs in Docker).
final class SRSRunTests: XCTestCase {
    func testPublisherAndPlayersThroughSRS() throws {
        let cell = InteropRecorder.cell(self, target: "SRS", role: "`rtcswarm run` publisher + players (srs-publish-play.json5)", codec: "H.264+Opus")
        guard let url = ProcessInfo.processInfo.environment["SRS_URL"], !url.isEmpty else {
            print("skipped: SRS_URL is not set (an SRS HTTP API such as http://127.0.0.1:1985; docker compose up srs)")
            throw XCTSkip("SRS_URL is not set")
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("srs-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let file = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios/srs-publish-play.json5").path
        // A fresh stream name: SRS keeps a stream busy for a while after its publisher leaves.
        let stream = "rtcswarm-\(UUID().uuidString.prefix(8))"
        let loaded = try ScenarioLoader.load(file: file, environment: ["SRS_URL": url, "DURATION_S": "12", "PLAYERS": "3"],
                                             overrides: ["groups[0].stream.name=\(stream)", "groups[1].stream.name=\(stream)"])
        let (report, outcome) = ScenarioRunner(loaded: loaded, options: .init(folder: out, version: "test", progress: { _ in })).run()
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(peers.count, 4)
        XCTAssertEqual(outcome, .passed, "\(peers.map { "\($0.id): \($0.failureReason ?? "ok")" }) \(report.invalidReason ?? "")")
        for player in peers where player.role == "player" {
            let video = try XCTUnwrap(player.streams.first { $0.kind == "video" }, "\(player.id) received no video")
            XCTAssertGreaterThan(video.framesReceived, 100)
            XCTAssertEqual(video.resolutionSurvival, 100)
        }
        // SRS's own figures on the run's time axis: one publisher and three players.
        let server = try XCTUnwrap(report.cells.first?.serverSamples.last, "SRS's API was sampled")
        // At least ours: SRS keeps the clients of streams that earlier tests on the same
        // SRS just left in its count for a while.
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(server.values["clients"]), 4)
        XCTAssertNotNil(server.values["cpu_pct"])
        XCTAssertEqual(report.targetVersion?.hasPrefix("SRS "), true, report.targetVersion ?? "no version")
        print("srs: setup p95 \(report.cells[0].metrics.value(at: MetricAddress(.setupMs, .p95)) ?? -1) ms, "
              + "first_frame p95 \(report.cells[0].metrics.value(at: MetricAddress(.firstFrameMs, .p95)) ?? -1) ms")
    }
}
