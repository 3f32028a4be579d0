import Foundation
import WebRTCTestKit
import XCTest

/// Two aiortc peers (Tests/Interop/aiortc_peer.py) calling each other through the Swift
/// driver: proves the tooling that rtcswarm's peer is tested against (issue 3) works,
/// stays on 127.0.0.1 and counts frames exactly.
final class AiortcInteropTests: XCTestCase {
    func testTwoAiortcPeersExchangeEveryVP8FrameAndOpusAt640x480() throws {
        try call(video: "vp8", width: 640, height: 480)
    }

    func testTwoAiortcPeersExchangeEveryH264FrameAndOpusAt1280x720() throws {
        try call(video: "h264", width: 1280, height: 720)
    }

    func testTwoRelayOnlyAiortcPeersCallThroughCoturn() throws {
        _ = try PythonPeers.python()
        let coturn = try Coturn()
        defer { coturn.stop() }
        let (offer, summaries) = try call(video: "vp8", width: 320, height: 240, turn: coturn.address)
        let candidates = Self.candidates(offer)
        XCTAssertFalse(candidates.isEmpty)
        for candidate in candidates {
            XCTAssertEqual(candidate.type, "relay", candidate.line)
            XCTAssertTrue(candidate.port.map(Coturn.relayPorts.contains) ?? false, candidate.line)
        }
        XCTAssertNotNil(summaries.first?.setupMs)
    }

    func testAiortcAnswererConnectsOnTrickledCandidatesAndEndOfCandidates() throws {
        InteropRecorder.cell(self, target: "aiortc", version: TargetVersion.pip("aiortc"), role: "aiortc ↔ aiortc (reference)", codec: "VP8+Opus")
        let python = try PythonPeers.python()
        let script = PythonPeers.script("aiortc_peer.py")
        let options = { (role: AiortcPeer.Role) in AiortcPeer.Options(role: role, frames: 10, width: 160, height: 120) }
        let offerer = try AiortcPeer(python: python, script: script, options: options(.offerer))
        defer { offerer.stop() }
        let answerer = try AiortcPeer(python: python, script: script, options: options(.answerer))
        defer { answerer.stop() }

        // The offer without its candidates, which then come one message each.
        var mid = ""
        var mLineIndex = -1
        var trickled: [(candidate: String, mid: String, index: Int)] = []
        var bare: [Substring] = []
        for line in try offerer.localDescription().split(separator: "\r\n") {
            if line.hasPrefix("m=") { mLineIndex += 1 }
            if line.hasPrefix("a=mid:") { mid = String(line.dropFirst(6)) }
            if line.hasPrefix("a=candidate:") {
                trickled.append((String(line.dropFirst(2)), mid, mLineIndex))
            } else if line != "a=end-of-candidates" {
                bare.append(line)
            }
        }
        XCTAssertEqual(trickled.count, 2, "one candidate per m-line")
        try answerer.setRemoteDescription(bare.joined(separator: "\r\n") + "\r\n")
        try offerer.setRemoteDescription(answerer.localDescription())
        for candidate in trickled { try answerer.addCandidate(candidate.candidate, mid: candidate.mid, mLineIndex: candidate.index) }
        try answerer.addCandidate(nil, mid: "0", mLineIndex: 0)

        let summaries = try [offerer.summary(), answerer.summary()]
        let host = try XCTUnwrap(Self.candidates("a=" + trickled[0].candidate).first)
        XCTAssertEqual(summaries[1].remoteCandidates, ["127.0.0.1 \(host.port ?? 0) host"], "the trickled candidate was taken")
        for summary in summaries {
            XCTAssertNil(summary.error, summary.role)
            XCTAssertEqual(summary.videoFramesDecoded, 10, summary.role)
            XCTAssertEqual(summary.videoResolutions, ["160x120": 10], summary.role)
        }
    }

    func testAiortcAnswererOfASendOnlyOfferOnlyReceives() throws {
        InteropRecorder.cell(self, target: "aiortc", version: TargetVersion.pip("aiortc"), role: "aiortc ↔ aiortc (reference)", codec: "VP8+Opus")
        let python = try PythonPeers.python()
        let script = PythonPeers.script("aiortc_peer.py")
        let options = { (role: AiortcPeer.Role) in AiortcPeer.Options(role: role, frames: 10, width: 160, height: 120) }
        let offerer = try AiortcPeer(python: python, script: script, options: options(.offerer))
        defer { offerer.stop() }
        let answerer = try AiortcPeer(python: python, script: script, options: options(.answerer))
        defer { answerer.stop() }

        // A publisher's offer: sendonly m-lines.
        let offer = try offerer.localDescription().replacingOccurrences(of: "a=sendrecv", with: "a=sendonly")
        try answerer.setRemoteDescription(offer)
        let answer = try answerer.localDescription()
        XCTAssertEqual(answer.components(separatedBy: "a=recvonly").count - 1, 2, answer)
        try offerer.setRemoteDescription(answer)

        let (sent, received) = try (offerer.summary(), answerer.summary())
        XCTAssertNil(sent.error)
        XCTAssertNil(received.error)
        XCTAssertEqual(sent.videoFramesSent, 10)
        XCTAssertEqual(sent.videoFramesDecoded, 0)
        XCTAssertEqual(received.videoFramesSent, 0)
        XCTAssertEqual(received.audioFramesSent, 0)
        XCTAssertEqual(received.videoFramesDecoded, 10)
        XCTAssertEqual(received.audioPacketsReceived, sent.audioFramesSent)
    }

    func testAiortcPeerToldByeBeforeTheAnswerReportsWhyAndExitsWithStatus1() throws {
        let offerer = try AiortcPeer(python: PythonPeers.python(), script: PythonPeers.script("aiortc_peer.py"),
                                     options: .init(role: .offerer))
        defer { offerer.stop() }
        XCTAssertTrue(try offerer.localDescription().hasPrefix("v=0\r\n"))
        try offerer.bye()
        let summary = try offerer.summary()
        XCTAssertEqual(summary.error, "RuntimeError: bye before the answer")
        XCTAssertEqual(summary.videoFramesSent, 0)
        XCTAssertEqual(offerer.process.wait(timeout: 5), 1)
    }

    @discardableResult
    private func call(video: String, width: Int, height: Int, frames: Int = 30,
                      turn: String? = nil) throws -> (offer: String, summaries: [AiortcSummary]) {
        let cell = InteropRecorder.cell(self, target: "aiortc", version: TargetVersion.pip("aiortc"),
                                        role: turn == nil ? "aiortc ↔ aiortc (reference)" : "aiortc ↔ aiortc, relay-only through coturn (reference)",
                                        codec: video == "vp8" ? "VP8+Opus" : "H.264+Opus")
        let python = try PythonPeers.python()
        let script = PythonPeers.script("aiortc_peer.py")
        let offerer = try AiortcPeer(python: python, script: script, options: .init(
            role: .offerer, video: video, frames: frames, width: width, height: height, turn: turn))
        defer { offerer.stop() }
        let answerer = try AiortcPeer(python: python, script: script, options: .init(
            role: .answerer, video: video, frames: frames, width: width, height: height, turn: turn))
        defer { answerer.stop() }

        let offer = try offerer.localDescription()
        try answerer.setRemoteDescription(offer)
        let answer = try answerer.localDescription()
        try offerer.setRemoteDescription(answer)
        let summaries = try [offerer.summary(), answerer.summary()]

        for sdp in [offer, answer] {
            for candidate in Self.candidates(sdp) { XCTAssertEqual(candidate.address, "127.0.0.1", candidate.line) }
        }
        let mime = video == "vp8" ? "video/VP8" : "video/H264"
        for (summary, remote) in zip(summaries, summaries.reversed()) {
            let who = summary.role
            XCTAssertNil(summary.error, who)
            XCTAssertEqual(summary.codecs, ["video": mime, "audio": "audio/opus"], who)
            XCTAssertEqual(summary.videoFramesSent, frames, who)
            XCTAssertEqual(summary.videoFramesDecoded, frames, "\(who) decoded every frame the other sent")
            XCTAssertEqual(summary.videoResolutions, ["\(width)x\(height)": frames], who)
            XCTAssertEqual(summary.videoFramesTagged, frames, "\(who) read every frame number")
            XCTAssertTrue(summary.videoTagsInOrder, who)
            XCTAssertEqual(summary.videoTagFirst, 0, who)
            XCTAssertEqual(summary.videoTagLast, frames - 1, who)
            XCTAssertEqual(summary.audioFramesSent, frames * 50 / 30, "\(who): 20 ms Opus frames for the video's duration")
            XCTAssertEqual(summary.audioPacketsReceived, remote.audioFramesSent, who)
            XCTAssertEqual(summary.rtp["inbound-video"]?["lost"], 0, who)
        }
        let setup = summaries.compactMap(\.setupMs).map { String(format: "%.0f", $0) }.joined(separator: "/")
        print("aiortc \(video) \(width)x\(height)\(turn == nil ? "" : " relay-only"): setup \(setup) ms, " +
              "first frame at \(summaries.compactMap(\.firstFrameMs)) ms, video packets \(summaries.map(\.videoPacketsReceived))")
        cell.measured(setupMs: summaries.compactMap(\.setupMs).max(),
                      lossPct: InteropCell.lossPct(sent: frames, received: summaries.map(\.videoFramesDecoded).min() ?? 0), resolution: "\(width)x\(height)")
        return (offer, summaries)
    }

    /// The candidates of an SDP: address, port and type of each `a=candidate` line.
    static func candidates(_ sdp: String) -> [(line: String, address: String, port: UInt16?, type: String)] {
        sdp.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("a=candidate:") }.map { line in
            let fields = line.split(separator: " ").map(String.init)
            let type = fields.firstIndex(of: "typ").flatMap { $0 + 1 < fields.count ? fields[$0 + 1] : nil } ?? ""
            return (String(line), fields.count > 4 ? fields[4] : "", fields.count > 5 ? UInt16(fields[5]) : nil, type)
        }
    }
}
