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
        try SRSCodecRun.publishAndPlay(self, scenario: "srs-av1.json5", codec: "AV1", api: "rtc", role: "AV1 publish + play (codec=av1)", cell: "AV1+Opus")
    }

    func testAV1OverWhipAndWhepKeepsThePublishedSize() throws {
        try SRSCodecRun.publishAndPlay(self, scenario: "srs-av1.json5", codec: "AV1", api: "whip-whep",
                                       role: "AV1 WHIP publish + WHEP play (codec=av1)", cell: "AV1+Opus")
    }

    /// 5 % loss on what two AV1 players (640x360 at 30 fps) receive: SRS resends what they
    /// NACK from its own cache and passes no NACK on to the publisher.
    func testAV1PlayersGetTheirNackedPacketsFromSRS() throws {
        let sent = try SRSPlayerLoss.check(self, scenario: "srs-av1.json5", environment: ["PLAYERS": "2", "FPS": "30", "RESOLUTION": "640x360"],
                                           role: "AV1 players with 5 % loss on SRS → player: first-pass vs residual loss, NACK recovery",
                                           cell: "AV1+Opus")
        XCTAssertEqual(try XCTUnwrap(sent).nacksReceived, 0, "SRS answered the players' NACKs itself")
    }

    /// What SRS answers an AV1-only publish offer (`AV1/90000`, PT 45 with RTX 46) with and
    /// without `?codec=av1`: asked, SRS 7.0.18 keeps payload type 45 and answers it alone,
    /// with no fmtp and no RTX; not asked, it refuses the offer.
    func testSRSTakesAV1OnlyWhenAskedWithCodecAv1() throws {
        let (asked, refusal) = try SRSNegotiation(url: SRSUnderTest.sharedURL()).publishAskedAndUnasked(video: .av1(), codec: "av1", seed: 41)
        XCTAssertEqual(asked, ["a=rtpmap:45 AV1/90000"], "the answer's video rtpmap and fmtp lines")
        XCTAssertNotNil(refusal, "SRS takes H.264 unless asked: an AV1-only offer without codec=av1 is refused")
    }
}
