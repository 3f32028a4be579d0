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
    private func freePort() throws -> UInt16 { try LoopbackPorts.free()[0] }

    func testRtcswarmPairsCallEachOtherOverTCPLines() throws {
        let port = try freePort()
        let (report, outcome) = try AiortcCall.run("""
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
        let (summary, _) = try AiortcCall.call(bridge: [PythonPeers.script("aiortc_tcp_peer.py"), "127.0.0.1", "\(port)"],
                                               target: "{ kind: \"tcp-p2p\", url: \"tcp://127.0.0.1:\(port)\" }", seconds: 6, cell: cell)
        XCTAssertEqual(summary["role"] as? String, "answerer")
    }
}
