import Foundation
import Report
import WebRTCTestKit
import XCTest

/// rtcswarm calls headless Chromium (Debian's `chromium`): `rtcswarm run
/// Scenarios/chromium-call.json5` inside a network namespace that has only `lo`; the page
/// comes from the built-in room server's `/peer` and meets rtcswarm over the plain
/// WebSocket room protocol. Once both sides stopped sending, Chromium's own getStats()
/// must agree with what rtcswarm sent and received on the same streams (issue 9).
final class ChromiumCallTests: XCTestCase {
    /// `arguments` follow the scenario on the command line (each is single-quoted there).
    func run(_ environment: [String: String], scenario name: String = "chromium-call", arguments: [String] = []) throws -> PeerRecord {
        _ = try ExternalTool.require("chromium", installHint: "apt-get install chromium")
        let unshare = try ExternalTool.require("unshare", installHint: "apt-get install util-linux")
        _ = try ExternalTool.require("ip", installHint: "apt-get install iproute2")
        let rtcswarm = ExternalTool.repositoryRoot.appendingPathComponent(".build/debug/rtcswarm")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-call-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let scenario = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios/\(name).json5").path
        let variables = environment.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let extra = arguments.map { " '\($0)'" }.joined()
        let command = "ip link set lo up && env \(variables) \(rtcswarm.path) run \(scenario)\(extra) --out \(out.path)"
        let result = try ExternalTool.run(unshare, ["--net", "--fork", "sh", "-c", command])
        let log = (try? String(contentsOf: out.appendingPathComponent("chromium-g0.log"), encoding: .utf8)) ?? "(no log)"
        XCTAssertEqual(result.status, 0, "rtcswarm run: \(result.output.suffix(1500))\nChromium: \(log.suffix(1500))")
        let lines = try String(contentsOf: out.appendingPathComponent("peers.ndjson"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one rtcswarm peer, Chromium the other side")
        let peer = try JSONDecoder().decode(PeerRecord.self, from: Data(try XCTUnwrap(lines.first).utf8))
        XCTAssertEqual(peer.outcome, .completed, peer.failureReason ?? "")
        print("Chromium: \(peer.browser?.userAgent ?? "no stats")")
        return peer
    }

    private func figures(_ peer: PeerRecord, _ kind: String) throws
        -> (sent: SentStreamRecord, received: StreamRecord, browserIn: BrowserStats.Stream, browserOut: BrowserStats.Stream) {
        let browser = try XCTUnwrap(peer.browser, "Chromium sent its stats")
        return (try XCTUnwrap(peer.sentStreams?.first { $0.kind == kind }), try XCTUnwrap(peer.streams.first { $0.kind == kind }),
                try XCTUnwrap(browser.stream("inbound", kind)), try XCTUnwrap(browser.stream("outbound", kind)))
    }

    /// The matrix cell of a call with Chromium in `codec` ("VP8+Opus").
    private func cell(_ codec: String, role: String = "callee: /peer page of the built-in room server (rtcswarm offers)") -> InteropCell {
        InteropRecorder.cell(self, target: "Chromium", version: TargetVersion.chromium, role: role, codec: codec)
    }

    private func measured(_ cell: InteropCell, _ peer: PeerRecord) {
        let video = peer.streams.first { $0.kind == "video" }
        cell.measured(setupMs: peer.phases["setup_ms"], lossPct: video?.lossPct, resolution: video?.resolutions.keys.sorted().joined(separator: ", "))
    }

    /// With no loss, what each side sent is what the other received, frame for frame and
    /// packet for packet, at the camera's exact size.
    private func assertAgreement(codec: String, mime: String, duration: Int) throws {
        let cell = cell(mime.hasSuffix("H264") ? "H.264+Opus" : "\(codec.uppercased())+Opus")
        let peer = try run(["DURATION_S": String(duration), "RESOLUTION": "320x180", "CODEC": codec])
        measured(cell, peer)
        let video = try figures(peer, "video")
        print("\(codec): rtcswarm sent \(video.sent.framesSent) frames, Chromium received \(video.browserIn.frames ?? -1); "
              + "Chromium sent \(video.browserOut.frames ?? -1), rtcswarm received \(video.received.framesReceived); "
              + "setup \(peer.phases["setup_ms"] ?? -1) ms; ICE \(peer.phases["ice_ms"] ?? -1) ms (Chromium \(peer.browser?.iceMs ?? -1)), "
              + "DTLS \(peer.phases["dtls_ms"] ?? -1) ms (Chromium \(peer.browser?.dtlsMs ?? -1))")
        // Chromium timed its own setup phases (BrowserStats.iceMs, dtlsMs), for comparing
        // with rtcswarm's on the same call.
        XCTAssertGreaterThan(try XCTUnwrap(peer.browser?.iceMs, "Chromium's ICE phase"), 0)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(peer.browser?.dtlsMs, "Chromium's DTLS phase"), 0)
        XCTAssertGreaterThan(video.sent.framesSent, 20 * (duration - 2), "about 30 fps")
        XCTAssertEqual(video.browserIn.frames, video.sent.framesSent, "frames rtcswarm sent = Chromium's framesReceived")
        XCTAssertEqual(video.browserIn.framesDecoded, video.sent.framesSent, "and Chromium decoded them all")
        XCTAssertEqual(video.received.framesReceived, video.browserOut.frames, "frames Chromium sent = frames rtcswarm received")
        XCTAssertEqual(video.browserIn.packets, video.sent.packetsSent)
        XCTAssertEqual(video.received.packetsReceived, video.browserOut.packets)
        XCTAssertEqual(video.browserIn.codec, mime)
        XCTAssertEqual(video.browserOut.codec, mime)
        // Resolutions agree exactly, both ways.
        XCTAssertEqual(video.browserIn.frameWidth, 320)
        XCTAssertEqual(video.browserIn.frameHeight, 180)
        XCTAssertEqual(video.browserOut.frameWidth, 320)
        XCTAssertEqual(video.browserOut.frameHeight, 180)
        XCTAssertEqual(video.received.resolutions, ["320x180": video.received.framesReceived])
        let audio = try figures(peer, "audio")
        XCTAssertEqual(audio.browserIn.packets, audio.sent.packetsSent, "every Opus packet rtcswarm sent reached Chromium")
        XCTAssertEqual(audio.received.packetsReceived, audio.browserOut.packets, "and every one Chromium sent reached rtcswarm")
        XCTAssertEqual(video.received.lossPct, 0)
        XCTAssertEqual(video.browserIn.packetsLost, 0)
    }

    func testVP8FramesAndResolutionsAgreeWithChromiumsGetStats() throws {
        try assertAgreement(codec: "vp8", mime: "video/VP8", duration: 8)
    }

    func testH264FramesAndResolutionsAgreeWithChromiumsGetStats() throws {
        try assertAgreement(codec: "h264", mime: "video/H264", duration: 6)
    }

    func testVP9FramesAndResolutionsAgreeWithChromiumsGetStats() throws {
        try assertAgreement(codec: "vp9", mime: "video/VP9", duration: 6)
    }

    /// 5 % of what Chromium sends is dropped before rtcswarm sees it. rtcswarm's first-pass
    /// loss (METRICS.md: declared missing and NACKed) is what Chromium was asked to resend.
    func testInjectedLossAgreesWithChromiumsNackCount() throws {
        let cell = cell("VP8+Opus", role: "callee, 5 % of its packets dropped (first-pass loss vs its nackCount)")
        let peer = try run(["DURATION_S": "15", "RESOLUTION": "320x180", "LOSS_PCT": "5"])
        measured(cell, peer)
        let video = try figures(peer, "video")
        let expected = Double(video.received.packetsExpected)
        let firstPassLost = video.received.lossPct * expected / 100
        let nackCount = Double(try XCTUnwrap(video.browserOut.nackCount))
        print("video with 5 % loss: \(video.received.packetsExpected) packets expected, first-pass loss "
              + "\(String(format: "%.2f", video.received.lossPct)) % (\(Int(firstPassLost.rounded())) packets), "
              + "residual \(String(format: "%.2f", video.received.residualLossPct)) %; rtcswarm sent \(video.received.nacks) NACKs, "
              + "Chromium counted \(Int(nackCount)) and resent \(video.browserOut.retransmittedPackets ?? -1) packets")
        XCTAssertGreaterThan(firstPassLost, 0.02 * expected, "the injected loss was seen")
        XCTAssertLessThan(firstPassLost, 0.08 * expected)
        // Each packet is NACKed at least once; retries of lost resends add a few more.
        XCTAssertEqual(firstPassLost / expected * 100, nackCount / expected * 100, accuracy: 2,
                       "first-pass loss and Chromium's nackCount, as shares of the stream's packets")
        // rtcswarm's NACKs travel a clean path, so Chromium counted every one of them.
        XCTAssertEqual(video.received.nacks, Int(nackCount))
        XCTAssertEqual(video.received.residualLossPct, 0, "every lost packet came back")
    }

    /// rtcswarm restarts ICE at 3 s of an 8 s call (Scenarios/chromium-ice-restart.json5):
    /// Chromium answers the re-offer with a new ufrag, both sides are connected again with
    /// the new credentials and time it, and video keeps arriving at about 30 fps afterwards,
    /// every frame rtcswarm sent reaching Chromium.
    func testAnIceRestartConnectsAgainWithNewCredentialsAndMediaGoesOn() throws {
        let cell = cell("VP8+Opus", role: "ICE restart: callee answers rtcswarm's re-offer with new credentials (RFC 8445 9)")
        let duration = 8, restartAt = 3
        let peer = try run(["DURATION_S": String(duration), "RESTART_AT_S": String(restartAt)], scenario: "chromium-ice-restart")
        measured(cell, peer)
        let restart = try XCTUnwrap(peer.browser?.iceRestart, "Chromium reported no ICE restart")
        XCTAssertEqual(restart.ufrags.count, 2, "its ufrag before the restart and in its restart answer")
        XCTAssertNotEqual(restart.ufrags.first, restart.ufrags.last, "Chromium answered with a new ufrag")
        let ours = try XCTUnwrap(peer.phases["ice_restart_ms"], "rtcswarm never connected again")
        let theirs = try XCTUnwrap(restart.ms, "Chromium never selected a pair with its new ufrag")
        let video = try figures(peer, "video")
        let atConnected = try XCTUnwrap(restart.framesReceivedAtConnected, "Chromium's frames when connected again")
        let after = (video.browserIn.frames ?? 0) - atConnected
        print("ICE restart: rtcswarm ice_restart_ms \(ours), Chromium \(theirs) ms; ufrags \(restart.ufrags); "
              + "lost meanwhile \(peer.phases["ice_restart_lost_packets"] ?? -1); Chromium received \(atConnected) frames "
              + "by then and \(after) after; rtcswarm sent \(video.sent.framesSent), received \(video.received.framesReceived)")
        XCTAssertGreaterThan(ours, 0)
        XCTAssertLessThan(ours, 3000)
        XCTAssertGreaterThan(theirs, 0)
        XCTAssertLessThan(theirs, 3000)
        XCTAssertGreaterThan(after, 20 * (duration - restartAt - 2), "video went on after the restart")
        XCTAssertEqual(video.browserIn.frames, video.sent.framesSent, "no frame lost to the restart, rtcswarm to Chromium")
        XCTAssertEqual(video.received.framesReceived, video.browserOut.frames, "nor Chromium to rtcswarm")
    }
}
