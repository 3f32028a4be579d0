import Foundation
import SDP
import WebRTCTestKit
import XCTest

/// What SRS answers an AV1-only publish offer (`AV1/90000`, the AV1 RTP payload format's
/// name) with and without `?codec=av1`. Only the negotiation: rtcswarm has no AV1 encoder
/// or packetizer yet, so this records whether SRS 7 would take AV1 at all.
final class SRSAV1NegotiationTests: XCTestCase {
    func testAV1PublishOfferWithCodecAv1() throws {
        let srs = try SRSNegotiation(url: SRSUnderTest.sharedURL())
        let av1 = CodecCapability(name: "AV1", clockRate: 90_000, feedback: CodecCapability.videoFeedback, payloadType: 45)
        let offer = try srs.offer(.sendonly, video: av1, seed: 41)
        let (_, events) = srs.negotiate(srs.rtc(.publish, stream: SRSNegotiation.freshStream("av1"), offer: offer, codec: "av1"))
        let answer = try XCTUnwrap(events.lazy.compactMap(\.answerSDP).first, "SRS with codec=av1: \(events)")
        print("srs av1 answer with codec=av1: \(SRSH265Tests.videoLines(answer))")
        XCTAssertTrue(SRSH265Tests.videoLines(answer).contains("a=rtpmap:45 AV1/90000"), answer)
        let (_, unasked) = srs.negotiate(srs.rtc(.publish, stream: SRSNegotiation.freshStream("av1"), offer: offer))
        let refusal = unasked.lazy.compactMap(\.failure).first
        print("srs av1 offer without codec=av1: \(refusal.map { "\($0)" } ?? "answered")")
        XCTAssertNotNil(refusal, "SRS takes H.264 unless asked: an AV1-only offer without codec=av1 is refused")
    }
}
