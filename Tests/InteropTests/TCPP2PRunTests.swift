import EventLoop
import Foundation
import Report
import Runtime
import RTCBase
import Scenario
import WebRTCTestKit
import XCTest

/// `target.kind: "tcp-p2p"`: calls signaled over a bare TCP socket, one JSON object per
/// line, with no server at all; between rtcswarm's own peers, and with an aiortc peer
/// (Tests/Interop/aiortc_tcp_peer.py) that connects to rtcswarm's listening caller.
final class TCPP2PRunTests: XCTestCase {
    /// A loopback port nobody listens on (nor, for two calls, on the next one).
    private func freePort() throws -> UInt16 {
        let loop = try EventLoop()
        let listener = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        defer { listener.close() }
        return listener.localAddress.port
    }

    private func run(_ text: String) throws -> (RunReport, ScenarioRunner.Outcome) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tcp-p2p-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        return ScenarioRunner(loaded: try ScenarioLoader.load(text: text), options: .init(folder: out, version: "test", progress: { _ in })).run()
    }

    func testRtcswarmPairsCallEachOtherOverTCPLines() throws {
        let port = try freePort()
        let (report, outcome) = try run("""
        { name: "tcp-p2p", duration_s: 4, target: { kind: "tcp-p2p", url: "tcp://127.0.0.1:\(port)" },
          groups: [{ role: "pair", count: 2, arrival: { rate_per_s: 20 },
                     media: { video: { codec: "vp8", resolution: "320x180", fps: 30, bitrate_kbps: 300 } } }] }
        """)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { $0.failureReason ?? "ok" })")
        XCTAssertEqual(peers.count, 4)
        for peer in peers {
            XCTAssertEqual(peer.outcome, .completed, peer.failureReason ?? "")
            XCTAssertNotNil(peer.phases["join_ms"], "\(peer.id): the socket's set-up is its join")
            let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" })
            XCTAssertGreaterThan(video.framesReceived, 60, "\(peer.id): about 3.5 s at 30 fps")
            XCTAssertEqual(video.resolutions.keys.sorted(), ["320x180"])
        }
    }

    /// rtcswarm's caller listens and offers; aiortc connects, answers, sends 60 frames and
    /// decodes what rtcswarm sends.
    func testAnAiortcPeerAnswersRtcswarmOverTCPLines() throws {
        let cell = InteropRecorder.cell(self, target: "aiortc", version: TargetVersion.pip("aiortc"),
                                        role: "answerer over tcp-p2p JSON lines (rtcswarm listens and offers)", codec: "VP8+Opus")
        let port = try freePort()
        let aiortc = try JSONLinesProcess(try PythonPeers.python(), [
            PythonPeers.script("aiortc_tcp_peer.py"), "127.0.0.1", "\(port)",
            "--video", "vp8", "--frames", "60", "--expect-frames", "60", "--width", "320", "--height", "240", "--linger", "8",
        ])
        defer { aiortc.stop() }
        let (report, outcome) = try run("""
        { name: "tcp-p2p-aiortc", duration_s: 6, target: { kind: "tcp-p2p", url: "tcp://127.0.0.1:\(port)" },
          groups: [{ role: "pair", partner: "external", count: 1,
                     media: { video: { resolution: "320x180", fps: 30, bitrate_kbps: 300 } } }] }
        """)
        cell.measured(report)
        let summary = try XCTUnwrap(aiortc.next(ofType: ["summary"], timeout: 30), "aiortc's summary: \(aiortc.standardError.suffix(2000))")
        let peer = try XCTUnwrap(report.cells.first?.peers.first)
        XCTAssertEqual(outcome, .passed, peer.failureReason ?? "")
        XCTAssertNil(summary["error"] as? String, "aiortc: \(summary["error"] ?? "")")
        XCTAssertEqual(summary["role"] as? String, "answerer")
        let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" })
        XCTAssertEqual(video.framesReceived, 60, "every frame aiortc sent")
        XCTAssertEqual(video.resolutions, ["320x240": 60])
        let sent = try XCTUnwrap(peer.sentStreams?.first { $0.kind == "video" })
        let decoded = try XCTUnwrap(summary["video_frames_decoded"] as? Int)
        print("aiortc over tcp-p2p: decoded \(decoded) of the \(sent.framesSent) frames rtcswarm sent; setup \(peer.phases["setup_ms"] ?? -1) ms")
        XCTAssertGreaterThan(sent.framesSent, 100)
        XCTAssertGreaterThanOrEqual(decoded, sent.framesSent - 5)
        XCTAssertEqual(summary["video_resolutions"] as? [String: Int], ["320x180": decoded])
    }
}
