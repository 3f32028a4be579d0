import Foundation
import WebRTCTestKit
import XCTest

/// Janus on loopback (the loopback shim preloaded, ICE enforced to lo) with an aiortc peer
/// calling its EchoTest: proves the Janus set-up that rtcswarm's Janus tests run on.
final class JanusInteropTests: XCTestCase {
    func testAiortcGetsEveryVP8FrameBackFromJanusEchoTestOver127001() throws {
        try echo(video: "vp8")
    }

    func testAiortcGetsEveryH264FrameBackFromJanusEchoTestOver127001() throws {
        try echo(video: "h264")
    }

    private func echo(video: String) throws {
        let python = try PythonPeers.python()
        let janus = try JanusServer()
        defer { janus.stop() }
        let frames = 30
        let process = try ManagedProcess(python, [PythonPeers.script("janus_echo.py"), janus.url.absoluteString, "--video", video,
                                                  "--frames", "\(frames)", "--width", "320", "--height", "240", "--timeout", "10"])
        defer { process.stop() }
        XCTAssertEqual(process.wait(timeout: 25), 0, "\(process.text.suffix(1500))\n\(janus.log.suffix(1500))")
        let last = try XCTUnwrap(process.text.split(separator: "\n").last { $0.hasPrefix("{\"janus\"") }, process.text)
        let result = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let summary = try AiortcSummary(XCTUnwrap(result["summary"] as? [String: Any]))
        let candidates = try XCTUnwrap(result["answer_candidates"] as? [String])

        XCTAssertEqual(result["janus"] as? String, janus.version)
        XCTAssertFalse(candidates.isEmpty, "Janus gathered no candidate: is the loopback shim preloaded?")
        for candidate in candidates {
            XCTAssertEqual(candidate.split(separator: " ").dropFirst(4).first, "127.0.0.1", candidate)
        }
        XCTAssertNil(summary.error)
        XCTAssertEqual(summary.codecs["video"], video == "vp8" ? "video/VP8" : "video/H264")
        XCTAssertEqual(summary.videoFramesSent, frames)
        XCTAssertEqual(summary.videoFramesDecoded, frames, "every frame came back")
        XCTAssertEqual(summary.videoResolutions, ["320x240": frames])
        XCTAssertEqual(summary.videoFramesTagged, frames)
        XCTAssertTrue(summary.videoTagsInOrder)
        XCTAssertEqual(summary.audioPacketsReceived, summary.audioFramesSent, "every Opus packet came back")
        print("janus \(janus.version) echo \(video): setup \(summary.setupMs.map { String(format: "%.0f", $0) } ?? "-") ms, " +
              "first frame back at \(summary.firstFrameMs ?? -1) ms")
    }
}
