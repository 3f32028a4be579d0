import EventLoop
import Foundation
import Metrics
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// `rtcswarm run` against the real Janus 1.1.2: echo peers set up through the Janus
/// adapter, media both ways through the EchoTest, every figure measured (issue 5, 6).
final class JanusRunTests: XCTestCase {
    /// Janus 1.1.2 on loopback, answering; stopped at the end of the test.
    private func startJanus() throws -> JanusServer {
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let janus = try JanusServer(executable: executable, shim: try LoopbackShim.library())
        guard try JanusServer.waitUntilAnswering(janus, loop: try EventLoop()) else {
            janus.stop()
            throw JanusDidNotStart(log: String(janus.log.suffix(2000)))
        }
        return janus
    }

    /// Runs `count` echo peers for `seconds` against `janus`, sampling its admin API with
    /// `adminSecret`.
    private func runEchoPeers(_ janus: JanusServer, count: Int, seconds: Int,
                              adminSecret: String = JanusServer.adminSecret) throws -> (report: RunReport, outcome: ScenarioRunner.Outcome) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("janus-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let text = """
        { name: "janus-echo", duration_s: \(seconds),
          target: { kind: "janus", url: "http://127.0.0.1:\(janus.port)/janus",
                    janus: { plugin: "echotest", admin_url: "http://127.0.0.1:\(janus.adminPort)/admin", admin_secret: "\(adminSecret)" } },
          groups: [{ role: "echo", count: \(count), arrival: { rate_per_s: 10 },
                     media: { video: { codec: "vp8", resolution: "320x180", bitrate_kbps: 300 } } }],
          thresholds: ["failed_peers == 0"] }
        """
        return ScenarioRunner(loaded: try ScenarioLoader.load(text: text), options: .init(folder: out, version: "test", progress: { _ in })).run()
    }

    func testEchoPeersRunThroughJanusEchoTestAndMeasureTheirStreams() throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "`rtcswarm run` echo peers (EchoTest)", codec: "VP8+Opus")
        let janus = try startJanus()
        defer { janus.stop() }
        let (report, outcome) = try runEchoPeers(janus, count: 2, seconds: 5)
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { $0.failureReason ?? "ok" })")
        XCTAssertEqual(peers.count, 2)
        for peer in peers {
            XCTAssertEqual(peer.outcome, .completed, peer.failureReason ?? "")
            XCTAssertNotNil(peer.phases["setup_ms"])
            let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" }, "Janus echoed video back")
            XCTAssertGreaterThan(video.framesReceived, 60, "about 30 fps for several seconds")
            XCTAssertEqual(video.resolutions.keys.sorted(), ["320x180"])
        }
        print("janus echo: setup p95 \(report.cells[0].metrics.value(at: MetricAddress(.setupMs, .p95)) ?? -1) ms")
        // Janus's admin API, sampled on the run's time axis: one session per echo peer.
        let sessions = report.cells[0].serverSamples.compactMap { $0.values["sessions"] }
        XCTAssertGreaterThan(sessions.count, 2, "sampled every second")
        XCTAssertEqual(sessions.max(), 2)
        XCTAssertNil(report.warnings)
        // Janus's own name for itself, from /janus/info (Debian's package: 1.1.x).
        XCTAssertEqual(report.targetVersion?.hasPrefix("Janus 1."), true, report.targetVersion ?? "no version")
    }

    /// A wrong admin secret costs the server-side figures, not the run, and the report
    /// says why in Janus's words.
    func testAWrongAdminSecretIsAWarningInJanussWords() throws {
        InteropRecorder.cell(self, target: "Janus", role: "`rtcswarm run` echo peers (EchoTest)", codec: "VP8+Opus")
        let janus = try startJanus()
        defer { janus.stop() }
        let (report, outcome) = try runEchoPeers(janus, count: 1, seconds: 3, adminSecret: "wrong")
        XCTAssertEqual(outcome, .passed)
        XCTAssertTrue(report.cells[0].serverSamples.isEmpty)
        let warning = try XCTUnwrap(report.warnings?.first)
        XCTAssertTrue(warning.contains("no server-side figures"), warning)
        XCTAssertTrue(warning.contains("Unauthorized request (wrong or missing secret/token)"), warning)
    }

    /// A VideoRoom publisher and two players (subscribers) in Janus's standing room: the
    /// players find the publisher's feed by its stream name and receive its video whole.
    func testVideoRoomPlayersReceiveThePublishersFeed() throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "`rtcswarm run` VideoRoom publisher + players (janus-videoroom.json5)",
                                        codec: "VP8+Opus")
        let janus = try startJanus()
        defer { janus.stop() }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("janus-room-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let file = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios/janus-videoroom.json5").path
        let loaded = try ScenarioLoader.load(file: file, environment: [
            "JANUS_URL": "http://127.0.0.1:\(janus.port)/janus", "JANUS_ADMIN_URL": "http://127.0.0.1:\(janus.adminPort)/admin", "ROOM_ID": "\(JanusServer.standingRoom)", "PLAYERS": "2", "DURATION_S": "6",
        ])
        let (report, outcome) = ScenarioRunner(loaded: loaded, options: .init(folder: out, version: "test", progress: { _ in })).run()
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { "\($0.id): \($0.failureReason ?? "ok")" })")
        let players = peers.filter { $0.role == "player" }
        XCTAssertEqual(players.count, 2)
        for player in players {
            let video = try XCTUnwrap(player.streams.first { $0.kind == "video" }, "Janus forwarded the feed")
            XCTAssertGreaterThan(video.framesReceived, 60, "about 30 fps for several seconds")
            XCTAssertEqual(video.resolutionSurvival, 100)
            XCTAssertNotNil(player.streams.first { $0.kind == "audio" })
            XCTAssertNil(report.warnings)
            print("janus videoroom \(player.id): \(video.framesReceived) frames, \(video.fps) fps, loss \(video.lossPct) %, setup \(player.phases["setup_ms"] ?? -1) ms, plis \(video.plis), resolutions \(video.resolutions)")
        }
    }

    /// Janus killed (SIGKILL) two seconds into an eight-second run: the run still ends on
    /// time, every peer is reported failed with a reason that names what went wrong, and
    /// the media received before the crash is kept in the report.
    func testJanusKilledMidRunFailsEveryPeerWithAReasonAndTheRunEndsOnTime() throws {
        InteropRecorder.cell(self, target: "Janus", role: "`rtcswarm run` echo peers, Janus killed mid-run (every peer fails with a reason)",
                             codec: "VP8+Opus")
        let janus = try startJanus()
        defer { janus.stop() }
        let killer = Thread {
            Thread.sleep(forTimeInterval: 2)
            janus.signal(SIGKILL)
        }
        killer.start()
        let started = Date()
        let (report, outcome) = try runEchoPeers(janus, count: 2, seconds: 8)
        let elapsed = Date().timeIntervalSince(started)
        print("janus killed: run took \(elapsed) s; \(report.cells.first?.peers.map { $0.failureReason ?? "completed" } ?? [])")
        XCTAssertLessThan(elapsed, 20, "the run ends on time")
        XCTAssertEqual(outcome, .thresholdsFailed, "failed_peers == 0 cannot hold")
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(peers.count, 2)
        for peer in peers {
            XCTAssertEqual(peer.outcome, .failed)
            // The adapter's long poll is how a Janus session notices its server is gone.
            let reason = peer.failureReason ?? ""
            XCTAssertTrue(reason.hasPrefix("Janus long poll failed"), reason)
            XCTAssertTrue(reason.contains("Connection refused"), reason)
            let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" }, "the echo before the crash is reported")
            XCTAssertGreaterThan(video.framesReceived, 20)
        }
    }
}

private struct JanusDidNotStart: Error, CustomStringConvertible {
    var log: String
    var description: String { "Janus did not start: \(log)" }
}
