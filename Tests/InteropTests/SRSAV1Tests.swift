import Foundation
import Report
import SDP
import WebRTCTestKit
import XCTest

/// AV1 through SRS (Scenarios/srs-av1.json5): a libaom publisher and two players over
/// `/rtc/v1/` and over WHIP/WHEP, every request with `?codec=av1`. SRS 7.0.18 forwards
/// the AV1 RTP stream: each player reads the published size from the sequence header of
/// every keyframe it depacketizes, and decodes every frame from its first keyframe on
/// with libaom, reading back the block code the publisher drew.
final class SRSAV1Tests: XCTestCase {
    func testAV1PublishAndPlayKeepThePublishedSize() throws {
        try publishAndPlay(api: "rtc", role: "AV1 publish + play (codec=av1)")
    }

    func testAV1OverWhipAndWhepKeepsThePublishedSize() throws {
        try publishAndPlay(api: "whip-whep", role: "AV1 WHIP publish + WHEP play (codec=av1)")
    }

    /// One publisher and two players over `api` (`target.srs.api`), 10 s at 15 fps.
    private func publishAndPlay(api: String, role: String) throws {
        let cell = InteropRecorder.cell(self, target: "SRS", role: role, codec: "AV1+Opus")
        let resolution = "640x360"
        let run = try SRSRun.run("srs-av1.json5", url: SRSUnderTest.sharedURL(),
                                 environment: ["DURATION_S": "10", "PLAYERS": "2", "FPS": "15", "RESOLUTION": resolution],
                                 overrides: ["target.srs.api=\(api)"])
        cell.measured(run.report)
        XCTAssertEqual(run.peers.count, 3)
        XCTAssertEqual(run.peers.filter { $0.outcome == .failed }.count, 0, run.failures)
        let publisher = try XCTUnwrap(run.peers.first { $0.role == "publisher" })
        let sent = try XCTUnwrap(publisher.sentStreams?.first { $0.kind == "video" })
        XCTAssertEqual(sent.codec, "AV1", "the codec the publisher negotiated with SRS")
        let sentFps = Double(sent.framesSent) * 1000 / (publisher.endedAtMs - publisher.startedAtMs)
        let videos = try run.playerVideo()
        for video in videos {
            XCTAssertEqual(video.codec, "AV1")
            XCTAssertGreaterThan(video.framesReceived, 40, "frames at each player")
            XCTAssertGreaterThan(video.fps, sentFps * 0.85, "the publisher sent \(sentFps) frames/s")
            XCTAssertEqual(video.resolutions.keys.sorted(), [resolution], "sizes the player read from the sequence header")
            XCTAssertEqual(video.resolutionSurvival, 100)
            XCTAssertGreaterThan(video.framesDecoded ?? 0, 0, "libaom decoded the received frames")
            XCTAssertEqual(video.frameCodesRead, video.framesDecoded, "block code read back from every decoded picture")
        }
        print("srs av1 \(api) \(resolution): sent \(sent.framesSent) at \(sentFps) fps, received \(videos.map(\.framesReceived)), "
              + "sized \(videos.map { $0.resolutions[resolution] ?? 0 }), fps \(videos.map(\.fps)), "
              + "decoded \(videos.map { $0.framesDecoded ?? 0 }), codes read \(videos.map { $0.frameCodesRead ?? 0 }), "
              + "packets \(videos.map(\.packetsReceived)) of \(videos.map(\.packetsExpected)), PSNR \(videos.map { $0.psnrDb ?? 0 }) dB")
    }

    /// What SRS answers an AV1-only publish offer (`AV1/90000`, PT 45 with RTX 46) with and
    /// without `?codec=av1`: asked, SRS 7.0.18 keeps payload type 45 and answers it alone,
    /// with no fmtp and no RTX; not asked, it refuses the offer.
    func testSRSTakesAV1OnlyWhenAskedWithCodecAv1() throws {
        let srs = try SRSNegotiation(url: SRSUnderTest.sharedURL())
        let offer = try srs.offer(.sendonly, video: .av1(), seed: 41)
        let (_, asked) = srs.negotiate(srs.rtc(.publish, stream: SRSNegotiation.freshStream("av1"), offer: offer, codec: "av1"))
        let answer = try XCTUnwrap(asked.lazy.compactMap(\.answerSDP).first, "SRS with codec=av1: \(asked)")
        let video = SRSH265Tests.videoLines(answer)
        print("srs av1 answer with codec=av1: \(video)")
        XCTAssertEqual(video, ["a=rtpmap:45 AV1/90000"], "the answer's video rtpmap and fmtp lines")
        let (_, unasked) = srs.negotiate(srs.rtc(.publish, stream: SRSNegotiation.freshStream("av1"), offer: offer))
        let refusal = unasked.lazy.compactMap(\.failure).first
        print("srs av1 offer without codec=av1: \(refusal.map { "\($0)" } ?? "answered \(unasked.compactMap(\.answerSDP).map(SRSH265Tests.videoLines))")")
        XCTAssertNotNil(refusal, "SRS takes H.264 unless asked: an AV1-only offer without codec=av1 is refused")
    }
}
