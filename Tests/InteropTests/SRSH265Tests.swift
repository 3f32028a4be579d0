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
        try SRSCodecRun.publishAndPlay(self, scenario: "srs-h265.json5", codec: "H265", api: "rtc", role: "H.265 publish + play (codec=hevc)",
                                       cell: "H.265+Opus")
    }

    func testH265OverWhipAndWhepKeepsThePublishedSize() throws {
        try SRSCodecRun.publishAndPlay(self, scenario: "srs-h265.json5", codec: "H265", api: "whip-whep",
                                       role: "H.265 WHIP publish + WHEP play (codec=hevc)", cell: "H.265+Opus")
    }

    /// What SRS answers an H.265-only publish offer with and without `?codec=hevc`: the
    /// answer's video `a=rtpmap` and `a=fmtp` lines (SRS 7.0.18 keeps our payload type 104
    /// and writes no fmtp), or its refusal.
    func testSRSTakesH265OnlyWhenAskedWithCodecHevc() throws {
        let (asked, refusal) = try SRSNegotiation(url: SRSUnderTest.sharedURL()).publishAskedAndUnasked(video: .h265(), codec: "hevc", seed: 31)
        XCTAssertTrue(asked.contains("a=rtpmap:104 H265/90000"), "\(asked)")
        XCTAssertNotNil(refusal, "SRS takes H.264 unless asked: an H.265-only offer without codec=hevc is refused")
    }
}
