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
    func testTheEchoScenarioRunsOverJanussWebSocketTransport() throws {
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let janus = try JanusServer(executable: executable, shim: try LoopbackShim.library(), webSocket: true)
        defer { janus.stop() }
        guard try JanusServer.waitUntilAnswering(janus, loop: try EventLoop()), let port = janus.webSocketPort else {
            return XCTFail("Janus did not start: \(janus.log.suffix(2000))")
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("janus-ws-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let file = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios/janus-echo.json5").path
        let loaded = try ScenarioLoader.load(file: file, environment: [
            "JANUS_URL": "ws://127.0.0.1:\(port)", "JANUS_ADMIN_URL": "http://127.0.0.1:\(janus.adminPort)/admin", "PEERS": "2", "DURATION_S": "5",
        ])
        let (report, outcome) = ScenarioRunner(loaded: loaded, options: .init(folder: out, version: "test", progress: { _ in })).run()
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
}
