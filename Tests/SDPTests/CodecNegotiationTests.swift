import SDP
import XCTest

final class CodecNegotiationTests: XCTestCase {
    private func offer(_ name: String) throws -> SessionDescription {
        try SessionDescription.parse(SDPFixtureCorpus.sdp(name))
    }

    func testAiortcH264OfferAnswersConstrainedBaselinePT101WithItsRTX() throws {
        let video = try offer("aiortc/offer-sendonly-h264-opus.sdp").media[1]
        let answer = CodecNegotiation.answer(offered: video.codecs, local: [.h264()])
        XCTAssertEqual(answer.map(\.payloadType), [101, 102])
        XCTAssertEqual(answer[0].parameters.value("profile-level-id"), "42e01f")
        XCTAssertEqual(answer[0].parameters.value("packetization-mode"), "1")
        XCTAssertEqual(answer[1].associatedPayloadType, 101)
        // aiortc offers nack, nack pli and goog-remb; transport-cc and ccm fir are not offered.
        XCTAssertEqual(answer[0].feedback, [.remb, .nack, .pli])
    }

    func testBaselineCapabilityPicksAiortcPT99() throws {
        let video = try offer("aiortc/offer-sendonly-h264-opus.sdp").media[1]
        let baseline = CodecCapability.h264(profileLevelID: H264ProfileLevelID(profile: .baseline, level: .level3_1))
        XCTAssertEqual(CodecNegotiation.answer(offered: video.codecs, local: [baseline]).map(\.payloadType), [99, 100])
    }

    func testWithoutLocalRTXTheRTXFormatIsDropped() throws {
        let video = try offer("aiortc/offer-sendonly-h264-opus.sdp").media[1]
        XCTAssertEqual(CodecNegotiation.answer(offered: video.codecs, local: [.h264(rtxPayloadType: nil)]).map(\.payloadType), [101])
    }

    func testPacketizationModeMustMatch() throws {
        let video = try offer("chromium/offer-h264-only.sdp").media[1]
        let mode1 = CodecNegotiation.answer(offered: video.codecs, local: [.h264()])
        XCTAssertEqual(mode1.map(\.payloadType), [108, 109])
        let mode0 = CodecNegotiation.answer(offered: video.codecs, local: [.h264(packetizationMode: 0)])
        XCTAssertEqual(mode0.map(\.payloadType), [114, 115])
        XCTAssertEqual(mode0[0].parameters.value("packetization-mode"), "0")
    }

    func testVP9ProfileMustMatch() throws {
        let video = try offer("chromium/offer-vp9-only.sdp").media[1]
        XCTAssertEqual(CodecNegotiation.answer(offered: video.codecs, local: [.vp9(profileID: 2)]).map(\.payloadType), [100, 101])
        XCTAssertEqual(CodecNegotiation.answer(offered: video.codecs, local: [.vp9()]).first?.payloadType, 98)
    }

    func testAnswerKeepsOffererOrderNotLocalPreference() throws {
        let video = try offer("chromium/pair-offer.sdp").media[1]
        let answer = CodecNegotiation.answer(offered: video.codecs, local: [.vp9(), .h264(), .vp8()])
        // Chromium offers VP8 (96) first, H.264 42e01f mode 1 (108), then VP9 profile 0 (98).
        XCTAssertEqual(answer.map(\.payloadType), [96, 97, 108, 109, 98, 99])
    }

    func testOpusMatchesOnChannelCount() throws {
        let audio = try offer("chromium/pair-offer.sdp").media[0]
        XCTAssertEqual(CodecNegotiation.answer(offered: audio.codecs, local: [.opus()]).map(\.payloadType), [111])
        var mono = CodecCapability.opus()
        mono.channels = nil
        XCTAssertEqual(CodecNegotiation.answer(offered: audio.codecs, local: [mono]), [])
        XCTAssertEqual(CodecNegotiation.answer(offered: audio.codecs, local: [.opus()]).first?.parameters.value("useinbandfec"), "1")
    }

    func testVP8OnlyOfferAgainstH264OnlyCapabilitiesMatchesNothing() throws {
        let video = try offer("aiortc/offer-sendrecv-vp8-opus.sdp").media[1]
        XCTAssertEqual(CodecNegotiation.answer(offered: video.codecs, local: [.h264()]), [])
    }

    func testSRSVP8OnlyPublishOfferHasNoCodecForH264OnlyServer() throws {
        // The offer SRS refused with "no found valid H.264 payload type" (fixtures/README.md).
        let sdp = try offer("srs/error-vp8-only.request.json")
        XCTAssertEqual(sdp.media[1].codecs.map(\.name), ["VP8", "rtx"])
        XCTAssertEqual(CodecNegotiation.answer(offered: sdp.media[1].codecs, local: [.h264(), .h264(profileLevelID: .default)]), [])
        XCTAssertEqual(CodecNegotiation.answer(offered: sdp.media[0].codecs, local: [.opus()]).map(\.name), ["opus"])
    }

    func testLevelAsymmetryRFC6184Section822() {
        func offered(_ id: String, asymmetry: Bool) -> PayloadFormat {
            var parameters = [SDPParameter("packetization-mode", "1"), SDPParameter("profile-level-id", id)]
            if asymmetry { parameters.insert(SDPParameter("level-asymmetry-allowed", "1"), at: 0) }
            return PayloadFormat(payloadType: 102, name: "H264", clockRate: 90_000, parameters: parameters)
        }
        let local4 = CodecCapability.h264(profileLevelID: H264ProfileLevelID(profile: .constrainedBaseline, level: .level4))
        // Both allow asymmetry: the answer states the level the answerer receives (4.0).
        XCTAssertEqual(CodecNegotiation.h264AnswerProfileLevelID(offered: offered("42e01f", asymmetry: true), local: local4)?.description, "42e028")
        // The offer does not: the answer may not exceed the offered 3.1.
        XCTAssertEqual(CodecNegotiation.h264AnswerProfileLevelID(offered: offered("42e01f", asymmetry: false), local: local4)?.description, "42e01f")
        // A lower local level is answered when asymmetry is off.
        let local21 = CodecCapability.h264(profileLevelID: H264ProfileLevelID(profile: .constrainedBaseline, level: .level2_1))
        XCTAssertEqual(CodecNegotiation.h264AnswerProfileLevelID(offered: offered("42e033", asymmetry: false), local: local21)?.description, "42e015")
        // The profile in the answer is the offer's, and the answer fmtp carries it.
        let answer = CodecNegotiation.answer(offered: [offered("42e033", asymmetry: true)], local: [local4])
        XCTAssertEqual(answer.first?.parameters.value("profile-level-id"), "42e028")
        XCTAssertEqual(answer.first?.parameters.value("level-asymmetry-allowed"), "1")
    }

    func testH264WithoutProfileLevelIDIsBaselineLevel1() {
        let codec = PayloadFormat(payloadType: 97, name: "h264", clockRate: 90_000)
        XCTAssertEqual(codec.profileLevelID, H264ProfileLevelID(profile: .baseline, level: .level1))
        XCTAssertEqual(codec.packetizationMode, 0)
        XCTAssertFalse(CodecNegotiation.matches(codec, .h264()))
        XCTAssertTrue(CodecNegotiation.matches(codec, .h264(profileLevelID: .default, packetizationMode: 0)))
    }
}
