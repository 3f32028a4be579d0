import EventLoop
import Foundation
import Metrics
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// `rtcswarm run` of Scenarios/janus-echo.json5 with a `ws://` target: the echo peers set
/// up over Janus's WebSocket transport instead of the HTTP long poll, and media flows
/// both ways through the EchoTest.
final class JanusWebSocketRunTests: XCTestCase {
    /// Janus with its WebSocket transport on, answering; stopped by the caller.
    private func startJanus() throws -> JanusServer {
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let janus = try JanusServer(executable: executable, shim: try LoopbackShim.library(), webSocket: true)
        guard try JanusServer.waitUntilAnswering(janus, loop: try EventLoop()), janus.webSocketPort != nil else {
            janus.stop()
            XCTFail("Janus did not start: \(janus.log.suffix(2000))")
            throw CancellationError()
        }
        return janus
    }

    /// Scenarios/janus-echo.json5 with `peers` peers for `seconds`, at `ws://` on `janus`.
    private func runEcho(_ janus: JanusServer, peers: Int, seconds: Int) throws -> (report: RunReport, outcome: ScenarioRunner.Outcome) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("janus-ws-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let file = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios/janus-echo.json5").path
        let loaded = try ScenarioLoader.load(file: file, environment: [
            "JANUS_URL": "ws://127.0.0.1:\(janus.webSocketPort ?? 0)", "JANUS_ADMIN_URL": "http://127.0.0.1:\(janus.adminPort)/admin",
            "PEERS": "\(peers)", "DURATION_S": "\(seconds)",
        ])
        return ScenarioRunner(loaded: loaded, options: .init(folder: out, version: "test", progress: { _ in })).run()
    }

    func testTheEchoScenarioRunsOverJanussWebSocketTransport() throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "`rtcswarm run` echo peers over WebSocket (ws://, janus-echo.json5)", codec: "VP8+Opus")
        let janus = try startJanus()
        defer { janus.stop() }
        cell.version = ServerVersionProbe.janus(port: janus.port)
        let (report, outcome) = try runEcho(janus, peers: 2, seconds: 5)
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { "\($0.id): \($0.failureReason ?? "ok")" })")
        XCTAssertEqual(peers.count, 2)
        for peer in peers {
            XCTAssertEqual(peer.outcome, .completed, peer.failureReason ?? "")
            XCTAssertNotNil(peer.phases["setup_ms"])
            let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" }, "Janus echoed video back")
            XCTAssertGreaterThan(video.framesReceived, 60, "about 30 fps for several seconds")
            XCTAssertEqual(video.resolutionSurvival, 100)
            print("janus echo over ws \(peer.id): setup \(peer.phases["setup_ms"] ?? -1) ms, \(video.framesReceived) frames, \(video.fps) fps, loss \(video.lossPct) %")
        }
        // The admin API (HTTP) still counts the sessions the WebSocket peers hold.
        let sessions = report.cells[0].serverSamples.compactMap { $0.values["sessions"] }
        XCTAssertEqual(sessions.max(), 2)
        // Nothing asks the WebSocket port for /info, so nothing complains.
        XCTAssertNil(report.warnings)
        XCTAssertNil(report.targetVersion)
    }

    /// Janus killed (SIGKILL) two seconds in: the socket's end is how each peer learns,
    /// and its reason says so in WebSocket terms.
    func testJanusKilledMidRunFailsEveryPeerNamingTheClosedSocket() throws {
        InteropRecorder.cell(self, target: "Janus", role: "`rtcswarm run` echo peers over WebSocket, Janus killed mid-run (every peer fails with a reason)",
                             codec: "VP8+Opus")
        let janus = try startJanus()
        defer { janus.stop() }
        let killer = Thread {
            Thread.sleep(forTimeInterval: 2)
            janus.signal(SIGKILL)
        }
        killer.start()
        let started = Date()
        let (report, outcome) = try runEcho(janus, peers: 2, seconds: 6)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "the run ends on time")
        XCTAssertEqual(outcome, .thresholdsFailed)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(peers.count, 2)
        for peer in peers {
            XCTAssertEqual(peer.outcome, .failed)
            XCTAssertEqual(peer.failureReason, "Janus closed the WebSocket (code 1006: connection ended without a Close frame)")
            let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" }, "the echo before the crash is reported")
            XCTAssertGreaterThan(video.framesReceived, 20)
        }
    }
}
