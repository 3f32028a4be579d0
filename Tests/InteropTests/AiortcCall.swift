import Foundation
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// rtcswarm playing one side of a call whose other side is an aiortc peer (a bridge script
/// in Tests/Interop around aiortc_peer.py), through whatever signaling `target` names; the
/// checks every such call shares: aiortc sends 60 frames at 320x240 and stops, rtcswarm
/// (sending 320x180) gets every one and judges their size against the first keyframe's,
/// and aiortc decodes what rtcswarm sent but the frames in flight at the close.
enum AiortcCall {
    /// Runs a scenario in a fresh temporary report folder.
    static func run(_ text: String) throws -> (RunReport, ScenarioRunner.Outcome) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("aiortc-call-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        return ScenarioRunner(loaded: try ScenarioLoader.load(text: text), options: .init(folder: out, version: "test", progress: { _ in })).run()
    }

    /// `bridge`: the script and its own arguments; `ready` runs once aiortc is started
    /// (wait there for it to join first). Returns aiortc's summary and rtcswarm's peer.
    /// `data`: the group's data channels (aiortc echoes what arrives on them).
    static func call(bridge: [String], target: String, seconds: Int, cell: InteropCell, data: String? = nil,
                     ready: (JSONLinesProcess) -> Void = { _ in }) throws -> (summary: [String: Any], peer: PeerRecord) {
        let aiortc = try JSONLinesProcess(try PythonPeers.python(), bridge + [
            "--video", "vp8", "--frames", "60", "--expect-frames", "60", "--width", "320", "--height", "240", "--linger", "8",
        ])
        defer { aiortc.stop() }
        ready(aiortc)
        let (report, outcome) = try run("""
        { name: "aiortc-call", duration_s: \(seconds), target: \(target),
          groups: [{ role: "pair", partner: "external", count: 1,
                     media: { video: { resolution: "320x180", fps: 30, bitrate_kbps: 300 } }\(data.map { ", data: \($0)" } ?? "") }] }
        """)
        cell.measured(report)
        let summary = try XCTUnwrap(aiortc.next(ofType: ["summary"], timeout: 30), "aiortc's summary: \(aiortc.standardError.suffix(2000))")
        let peer = try XCTUnwrap(report.cells.first?.peers.first)
        XCTAssertEqual(outcome, .passed, peer.failureReason ?? "")
        XCTAssertNil(summary["error"] as? String, "aiortc: \(summary["error"] ?? "")")
        XCTAssertEqual(report.cells.first?.peers.count, 1, "rtcswarm plays one side only")
        let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" })
        XCTAssertEqual(video.framesReceived, 60)
        XCTAssertEqual(video.resolutions, ["320x240": 60])
        XCTAssertEqual(video.resolutionSurvival, 100)
        let sent = try XCTUnwrap(peer.sentStreams?.first { $0.kind == "video" })
        let decoded = try XCTUnwrap(summary["video_frames_decoded"] as? Int)
        print("aiortc (\(summary["role"] ?? "?")): decoded \(decoded) of the \(sent.framesSent) frames rtcswarm sent; rtcswarm received "
              + "\(video.framesReceived) of aiortc's 60; setup \(peer.phases["setup_ms"] ?? -1) ms")
        XCTAssertGreaterThan(sent.framesSent, 30 * (seconds - 3))
        XCTAssertLessThanOrEqual(decoded, sent.framesSent)
        XCTAssertGreaterThanOrEqual(decoded, sent.framesSent - 5)
        XCTAssertEqual(summary["video_resolutions"] as? [String: Int], ["320x180": decoded])
        return (summary, peer)
    }
}
