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
    func testEchoPeersRunThroughJanusEchoTestAndMeasureTheirStreams() throws {
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let janus = try JanusServer(executable: executable, shim: try LoopbackShim.library())
        defer { janus.stop() }
        guard try JanusServer.waitUntilAnswering(janus, loop: try EventLoop()) else {
            return XCTFail("Janus did not start: \(janus.log.suffix(2000))")
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("janus-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let text = """
        { name: "janus-echo", duration_s: 5,
          target: { kind: "janus", url: "http://127.0.0.1:\(janus.port)/janus", janus: { plugin: "echotest" } },
          groups: [{ role: "echo", count: 2, arrival: { rate_per_s: 10 },
                     media: { video: { codec: "vp8", resolution: "320x180", bitrate_kbps: 300 } } }] }
        """
        let (report, outcome) = ScenarioRunner(loaded: try ScenarioLoader.load(text: text),
                                               options: .init(folder: out, version: "test", progress: { _ in })).run()
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
    }
}
