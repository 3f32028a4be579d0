import EventLoop
import Foundation
import WebRTCTestKit
import XCTest

/// aiortc calling Janus's EchoTest (Tests/Interop/janus_echo.py) on the same loopback set-up
/// as rtcswarm's Janus tests: the reference that an independent stack gets every frame
/// back over 127.0.0.1.
final class JanusAiortcInteropTests: XCTestCase {
    func testAiortcGetsEveryVP8FrameBackFromJanusEchoTestOver127001() throws {
        try echo(video: "vp8")
    }

    func testAiortcGetsEveryH264FrameBackFromJanusEchoTestOver127001() throws {
        try echo(video: "h264")
    }

    private func echo(video: String) throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "EchoTest for aiortc (reference, no rtcswarm)",
                                        codec: video == "vp8" ? "VP8+Opus" : "H.264+Opus")
        let python = try PythonPeers.python()
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let janus = try JanusServer(executable: executable, shim: LoopbackShim.library())
        defer { janus.stop() }
        XCTAssertTrue(try JanusServer.waitUntilAnswering(janus, loop: EventLoop()), janus.log.suffix(1500).description)
        let frames = 30
        let url = "http://127.0.0.1:\(janus.port)/janus"
        let process = try ManagedProcess(python, [PythonPeers.script("janus_echo.py"), url, "--video", video,
                                                  "--frames", "\(frames)", "--width", "320", "--height", "240", "--timeout", "10"])
        defer { process.stop() }
        XCTAssertEqual(process.wait(timeout: 25), 0, "\(process.text.suffix(1500))\n\(janus.log.suffix(1500))")
        let last = try XCTUnwrap(process.text.split(separator: "\n").last { $0.hasPrefix("{\"janus\"") }, process.text)
        let result = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let summary = try AiortcSummary(XCTUnwrap(result["summary"] as? [String: Any]))
        cell.version = ServerVersionProbe.janus(port: janus.port)
        cell.measured(setupMs: summary.setupMs, lossPct: InteropCell.lossPct(sent: frames, received: summary.videoFramesDecoded),
                      resolution: summary.videoResolutions.keys.sorted().joined(separator: ", "))
        let candidates = try XCTUnwrap(result["answer_candidates"] as? [String])

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
        print("janus \(result["janus"] as? String ?? "?") echo to aiortc, \(video): setup " +
              "\(summary.setupMs.map { String(format: "%.0f", $0) } ?? "-") ms, first frame back at \(summary.firstFrameMs ?? -1) ms")
    }
}
