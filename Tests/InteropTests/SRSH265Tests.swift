import Foundation
import Report
import SDP
import WebRTCTestKit
import XCTest

/// H.265 through SRS (Scenarios/srs-h265.json5): an x265 publisher and two players over
/// `/rtc/v1/` and over WHIP/WHEP, each request with `?codec=hevc`, each player reading the size from the SPS of every
/// keyframe it receives (RFC 7798 depacketized) and decoding every frame with libde265.
final class SRSH265Tests: XCTestCase {
    func testH265PublishAndPlayKeepThePublishedSize() throws {
        try publishAndPlay(api: "rtc", role: "H.265 publish + play (codec=hevc)")
    }

    func testH265OverWhipAndWhepKeepsThePublishedSize() throws {
        try publishAndPlay(api: "whip-whep", role: "H.265 WHIP publish + WHEP play (codec=hevc)")
    }

    /// One publisher and two players over `api` (`target.srs.api`).
    private func publishAndPlay(api: String, role: String) throws {
        let cell = InteropRecorder.cell(self, target: "SRS", role: role, codec: "H.265+Opus")
        let resolution = "640x360"
        let run = try SRSRun.run("srs-h265.json5", url: SRSUnderTest.sharedURL(),
                                 environment: ["DURATION_S": "10", "PLAYERS": "2", "FPS": "15", "RESOLUTION": resolution],
                                 overrides: ["target.srs.api=\(api)"])
        cell.measured(run.report)
        XCTAssertEqual(run.peers.count, 3)
        XCTAssertEqual(run.peers.filter { $0.outcome == .failed }.count, 0, run.failures)
        let publisher = try XCTUnwrap(run.peers.first { $0.role == "publisher" })
        let sent = try XCTUnwrap(publisher.sentStreams?.first { $0.kind == "video" })
        XCTAssertEqual(sent.codec, "H265", "the codec the publisher negotiated with SRS")
        let sentFps = Double(sent.framesSent) * 1000 / (publisher.endedAtMs - publisher.startedAtMs)
        for video in try run.playerVideo() {
            XCTAssertEqual(video.codec, "H265")
            XCTAssertGreaterThan(video.framesReceived, 40, "frames at each player")
            XCTAssertGreaterThan(video.fps, sentFps * 0.85, "the publisher sent \(sentFps) frames/s")
            XCTAssertEqual(video.resolutions.keys.sorted(), [resolution], "sizes the player read from the SPS")
            XCTAssertEqual(video.resolutionSurvival, 100)
            XCTAssertGreaterThan(video.framesDecoded ?? 0, 0, "libde265 decoded the received frames")
            XCTAssertEqual(video.frameCodesRead, video.framesDecoded, "block code read back from every decoded picture")
        }
        let first = run.players.compactMap { $0.phases["first_frame_ms"] }
        let setup = run.peers.compactMap { $0.phases["setup_ms"] }
        print("srs h265 \(api) \(resolution): sent \(sent.framesSent) at \(sentFps) fps, received \(try run.playerVideo().map(\.framesReceived)), "
              + "fps \(try run.playerVideo().map(\.fps)), decoded \(try run.playerVideo().map { $0.framesDecoded ?? 0 }), "
              + "codes read \(try run.playerVideo().map { $0.frameCodesRead ?? 0 }), loss \(try run.playerVideo().map(\.lossPct)) %, "
              + "first frame \(first) ms, setup \(setup) ms")
    }

    /// What SRS answers an H.265-only publish offer with and without `?codec=hevc`: the
    /// answer's video `a=rtpmap` and `a=fmtp` lines (SRS 7.0.18 keeps our payload type 104
    /// and writes no fmtp), or its refusal.
    func testSRSTakesH265OnlyWhenAskedWithCodecHevc() throws {
        let srs = try SRSNegotiation(url: SRSUnderTest.sharedURL())
        let offer = try srs.offer(.sendonly, video: .h265(), seed: 31)
        let (_, asked) = srs.negotiate(srs.rtc(.publish, stream: SRSNegotiation.freshStream("hevc"), offer: offer, codec: "hevc"))
        let answer = try XCTUnwrap(asked.lazy.compactMap(\.answerSDP).first, "SRS with codec=hevc: \(asked)")
        let video = Self.videoLines(answer)
        print("srs h265 answer with codec=hevc: \(video)")
        XCTAssertTrue(video.contains("a=rtpmap:104 H265/90000"), "\(video)")
        let (_, unasked) = srs.negotiate(srs.rtc(.publish, stream: SRSNegotiation.freshStream("hevc"), offer: offer))
        let refusal = unasked.lazy.compactMap(\.failure).first
        print("srs h265 offer without codec=hevc: \(refusal.map { "\($0)" } ?? "answered \(unasked.compactMap(\.answerSDP).map(Self.videoLines))")")
        XCTAssertNotNil(refusal, "SRS takes H.264 unless asked: an H.265-only offer without codec=hevc is refused")
    }

    /// The `m=video` section's rtpmap and fmtp lines.
    static func videoLines(_ sdp: String) -> [String] {
        let lines = sdp.components(separatedBy: "\r\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("m=video") }) else { return [] }
        return lines[start...].prefix { $0 == lines[start] || !$0.hasPrefix("m=") }.filter { $0.hasPrefix("a=rtpmap") || $0.hasPrefix("a=fmtp") }
    }
}
