import RTCBase
import SDP
import WebRTCTestKit
import XCTest

final class SDPBuilderTests: XCTestCase {
    private let host = Candidate(foundation: "1", priority: 2_130_706_431, address: "127.0.0.1", port: 50_000, kind: .host)

    private func transport(iceLite: Bool = false) -> TransportDescription {
        var generator = SeededGenerator(seed: 3)
        return TransportDescription(
            iceUfrag: "ufrA", icePwd: "passwordpasswordpassword",
            fingerprint: Fingerprint(digest: Array(0..<32)), candidates: [host], iceLite: iceLite,
            sessionID: TransportDescription.randomSessionID(using: &generator))
    }

    private func publisher() -> SDPOffer {
        let audio = SenderDescription(ssrc: 1111, cname: "peer-1", streamID: "stream", trackID: "audio-track")
        let video = SenderDescription(ssrc: 2222, rtxSSRC: 3333, cname: "peer-1", streamID: "stream", trackID: "video-track")
        return SDPOffer(
            transceivers: [
                TransceiverDescription(mid: "0", kind: .audio, direction: .sendonly, codecs: [.opus()], sender: audio),
                TransceiverDescription(mid: "1", kind: .video, direction: .sendonly, codecs: [.h264(), .vp8()], sender: video),
            ],
            transport: transport())
    }

    func testOfferCarriesMsidSSRCAndBundleForEverySendingSection() throws {
        let text = try publisher().build().serialize()
        let sdp = try SessionDescription.parse(text)
        XCTAssertEqual(sdp.serialize(), text)
        XCTAssertEqual(sdp.bundleMids, ["0", "1"])
        XCTAssertEqual(sdp.iceOptions, ["trickle"])
        XCTAssertEqual(sdp.msidSemantic?.identifiers, ["stream"])
        XCTAssertLessThan(UInt64(sdp.origin.sessionID) ?? .max, UInt64(1) << 63)
        for section in sdp.media {
            XCTAssertEqual(section.direction, .sendonly)
            XCTAssertEqual(section.setup, .actpass)
            XCTAssertTrue(section.rtcpMux)
            XCTAssertTrue(section.rtcpRsize)
            XCTAssertEqual(section.msids.first?.streamID, "stream")
            XCTAssertFalse(section.ssrcs.isEmpty)
            XCTAssertTrue(section.ssrcs.allSatisfy { $0.cname == "peer-1" })
            XCTAssertEqual(section.port, 50_000)
            XCTAssertEqual(section.connection?.address, "127.0.0.1")
            XCTAssertEqual(section.candidates, [host])
            XCTAssertEqual(section.iceUfrag, "ufrA")
            XCTAssertEqual(section.fingerprints.first?.digest, Array(0..<32))
            XCTAssertEqual(section.extmaps.map(\.id), [1, 2, 3])
            XCTAssertEqual(section.extmaps.first?.uri, ExtMap.sdesMid)
        }
        let video = sdp.media[1]
        // 42e01f comes first, as SRS prefers it; then its RTX, then VP8 and RTX.
        XCTAssertEqual(video.formats, ["102", "103", "96", "97"])
        XCTAssertEqual(video.codecs.first?.parameters.value("profile-level-id"), "42e01f")
        XCTAssertEqual(video.ssrcGroups, [SSRCGroup(semantics: "FID", ssrcs: [2222, 3333])])
        XCTAssertEqual(video.ssrcs.map(\.ssrc), [2222, 3333])
        XCTAssertEqual(video.ssrcs.first?.msid, Msid(streamID: "stream", trackID: "video-track"))
        XCTAssertEqual(sdp.media[0].ssrcs.map(\.ssrc), [1111])
        XCTAssertEqual(sdp.media[0].ssrcGroups, [])
    }

    func testOfferTypedLinesPrintCanonically() throws {
        let sdp = try SessionDescription.parse(publisher().build().serialize())
        for line in sdp.lines + sdp.media.flatMap(\.lines) {
            XCTAssertEqual(SDPLine(line.field).text, line.text)
        }
        XCTAssertTrue(sdp.serialize().hasPrefix("v=0\r\no=- "))
        XCTAssertTrue(sdp.serialize().contains("\r\na=msid-semantic: WMS stream\r\n"))
    }

    func testSendingTransceiverWithoutSenderIsRefused() {
        let offer = SDPOffer(
            transceivers: [TransceiverDescription(mid: "0", kind: .audio, direction: .sendrecv, codecs: [.opus()])],
            transport: transport())
        XCTAssertThrowsError(try offer.build()) { error in
            XCTAssertTrue("\(error)".contains("no sender"))
        }
    }

    func testRecvonlyOfferWithoutSenderHasNoSSRCLines() throws {
        let offer = SDPOffer(
            transceivers: [TransceiverDescription(mid: "v", kind: .video, direction: .recvonly, codecs: [.vp8()])],
            transport: transport())
        let sdp = try offer.build()
        XCTAssertEqual(sdp.media[0].ssrcs, [])
        XCTAssertEqual(sdp.msidSemantic?.identifiers, ["*"])
        XCTAssertEqual(sdp.media[0].direction, .recvonly)
    }

    func testAnswerToAiortcH264OfferReversesDirectionAndPicksPT101() throws {
        let offer = try SessionDescription.parse(SDPFixtureCorpus.sdp("aiortc/offer-sendonly-h264-opus.sdp"))
        let answer = SDPAnswer(
            offer: offer, capabilities: [.audio: [.opus()], .video: [.h264()]], transport: transport(iceLite: true)
        ).build()
        let sdp = try SessionDescription.parse(answer.serialize())
        XCTAssertEqual(sdp, answer)
        XCTAssertTrue(sdp.iceLite)
        XCTAssertEqual(sdp.media.map(\.mid), ["0", "1"])
        XCTAssertEqual(sdp.bundleMids, ["0", "1"])
        XCTAssertEqual(sdp.media.map(\.direction), [.recvonly, .recvonly])
        XCTAssertEqual(sdp.media.map(\.setup), [.active, .active])
        XCTAssertEqual(sdp.media[0].formats, ["96"])
        XCTAssertEqual(sdp.media[1].formats, ["101", "102"])
        XCTAssertEqual(sdp.media[1].ssrcs, [])
        // aiortc offered sdes:mid and abs-send-time (ids 1, 3); no transport-cc.
        XCTAssertEqual(sdp.media[1].extmaps.map(\.id), [1, 3])
        XCTAssertFalse(sdp.media[1].rtcpRsize)
    }

    func testAnswerRejectsVP8OnlyVideoAgainstH264OnlyCapabilities() throws {
        let offer = try SessionDescription.parse(SDPFixtureCorpus.sdp("aiortc/offer-sendrecv-vp8-opus.sdp"))
        let sdp = SDPAnswer(offer: offer, capabilities: [.audio: [.opus()], .video: [.h264()]], transport: transport()).build()
        XCTAssertEqual(sdp.media.count, 2)
        XCTAssertEqual(sdp.media[1].port, 0)
        XCTAssertTrue(sdp.media[1].isRejected)
        XCTAssertEqual(sdp.media[1].mid, "1")
        XCTAssertEqual(sdp.media[1].formats, ["97"])
        XCTAssertEqual(sdp.media[1].candidates, [])
        XCTAssertEqual(sdp.bundleMids, ["0"])
        XCTAssertEqual(sdp.media[0].port, 50_000)
    }

    /// aiortc 1.16 offers audio, video and a data channel in one BUNDLE; we decline the
    /// data channel. Its setRemoteDescription refuses an answer in which any section lacks
    /// ICE credentials or an active/passive setup, or an RTP section lacks rtcp-mux, and one
    /// whose (kind, mid) list differs from the offer's: each of those is checked here.
    func testAnswerDecliningAiortcDataChannelKeepsTransportLinesAndLeavesItOutOfBundle() throws {
        let captured = try Fixtures.text("aiortc/offer-sendrecv-vp8-opus-datachannel.sdp")
        let offer = try SessionDescription.parse(captured)
        XCTAssertEqual(offer.serialize(), captured, "the capture round-trips byte for byte")
        XCTAssertEqual(offer.bundleMids, ["0", "1", "2"])
        let sdp = SDPAnswer(offer: offer, capabilities: [.audio: [.opus()], .video: [.vp8()]], transport: transport()).build()
        XCTAssertEqual(sdp.media.map(\.kind.description), ["audio", "video", "application"])
        XCTAssertEqual(sdp.media.map(\.mid), ["0", "1", "2"])
        XCTAssertEqual(sdp.bundleMids, ["0", "1"])
        let declined = sdp.media[2]
        XCTAssertEqual(declined.port, 0)
        XCTAssertTrue(declined.isRejected)
        XCTAssertEqual(declined.proto, "UDP/DTLS/SCTP")
        XCTAssertEqual(declined.formats, ["webrtc-datachannel"])
        XCTAssertEqual(declined.candidates, [])
        XCTAssertNil(declined.direction, "a data section has no direction")
        for section in sdp.media {
            XCTAssertEqual(section.iceUfrag, "ufrA", "mid \(section.mid ?? "-")")
            XCTAssertEqual(section.icePwd, "passwordpasswordpassword")
            XCTAssertEqual(section.fingerprints, [Fingerprint(digest: Array(0..<32))])
            XCTAssertEqual(section.setup, .active, "aiortc's actpass answered active")
        }
        XCTAssertTrue(sdp.media[0].rtcpMux && sdp.media[1].rtcpMux)
        let text = sdp.serialize()
        XCTAssertTrue(text.contains("m=application 0 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 0.0.0.0\r\na=ice-ufrag:ufrA\r\n"), text)
    }

    /// With a data channel configured the section is accepted and bundled (RFC 8841 4 to 6).
    func testAnswerAcceptingAiortcDataChannelCarriesSctpPortAndMaxMessageSize() throws {
        let offer = try SessionDescription.parse(Fixtures.text("aiortc/offer-sendrecv-vp8-opus-datachannel.sdp"))
        XCTAssertTrue(offer.media[2].isDataChannel)
        XCTAssertEqual(offer.media[2].sctpPort, 5000)
        var answerer = SDPAnswer(offer: offer, capabilities: [.audio: [.opus()], .video: [.vp8()]], transport: transport())
        answerer.dataChannel = (5000, 262_144)
        let sdp = answerer.build()
        let data = sdp.media[2]
        XCTAssertEqual(sdp.bundleMids, ["0", "1", "2"])
        XCTAssertEqual(data.port, 50_000)
        XCTAssertEqual(data.proto, "UDP/DTLS/SCTP")
        XCTAssertTrue(data.isDataChannel)
        XCTAssertEqual(data.sctpPort, 5000)
        XCTAssertEqual(data.setup, .active)
        XCTAssertNil(data.direction)
        XCTAssertTrue(sdp.serialize().contains("a=mid:2\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n"), sdp.serialize())
    }

    func testDeclinedVideoSectionIsInactiveWithRtcpMuxAsOffered() throws {
        let offer = try SessionDescription.parse(SDPFixtureCorpus.sdp("aiortc/offer-sendrecv-vp8-opus.sdp"))
        let sdp = SDPAnswer(offer: offer, capabilities: [.audio: [.opus()], .video: [.h264()]], transport: transport()).build()
        XCTAssertEqual(sdp.media[1].port, 0)
        XCTAssertEqual(sdp.media[1].direction, .inactive)
        XCTAssertEqual(sdp.media[1].rtcpMux, offer.media[1].rtcpMux)
        XCTAssertTrue(sdp.media[1].rtcpMux)
        XCTAssertEqual(sdp.media[1].setup, .active)
    }

    func testAnswerToSendrecvOfferSendsWithMsidAndFIDWhenRTXIsNegotiated() throws {
        let offer = try SessionDescription.parse(SDPFixtureCorpus.sdp("chromium/pair-offer.sdp"))
        let video = SenderDescription(ssrc: 10, rtxSSRC: 11, cname: "c", streamID: "s", trackID: "v")
        let audio = SenderDescription(ssrc: 20, rtxSSRC: 21, cname: "c", streamID: "s", trackID: "a")
        let sdp = SDPAnswer(
            offer: offer, capabilities: [.audio: [.opus()], .video: [.vp8()]], senders: ["0": audio, "1": video],
            transport: transport()
        ).build()
        XCTAssertEqual(sdp.media.map(\.direction), [.sendrecv, .sendrecv])
        XCTAssertEqual(sdp.media[1].formats, ["96", "97"])
        XCTAssertEqual(sdp.media[1].ssrcGroups.first?.ssrcs, [10, 11])
        // No RTX for audio: the RTX SSRC is left out.
        XCTAssertEqual(sdp.media[0].ssrcs.map(\.ssrc), [20])
        XCTAssertEqual(sdp.media[1].msids, [Msid(streamID: "s", trackID: "v")])
        XCTAssertTrue(sdp.media[1].rtcpRsize)
        XCTAssertEqual(sdp.msidSemantic?.identifiers, ["s"])
    }

    func testAnswerWithoutSenderToSendrecvOfferIsRecvonly() throws {
        let offer = try SessionDescription.parse(SDPFixtureCorpus.sdp("chromium/pair-offer.sdp"))
        let sdp = SDPAnswer(offer: offer, capabilities: [.audio: [.opus()], .video: [.vp8()]], transport: transport()).build()
        XCTAssertEqual(sdp.media.map(\.direction), [.recvonly, .recvonly])
        XCTAssertEqual(sdp.media.flatMap(\.ssrcs), [])
    }

    func testAnswerToRecvonlyOfferSendsAndAnswerToActiveOfferIsPassive() throws {
        var offer = try publisher().build()
        for index in offer.media.indices {
            offer.media[index].direction = .recvonly
            offer.media[index].removeAttributes { if case .setup = $0 { true } else { false } }
            offer.media[index].append(.setup(.active))
        }
        let sender = SenderDescription(ssrc: 5, cname: "c", streamID: "s", trackID: "t")
        let sdp = SDPAnswer(
            offer: offer, capabilities: [.audio: [.opus()], .video: [.vp8()]], senders: ["1": sender], transport: transport()
        ).build()
        XCTAssertEqual(sdp.media.map(\.direction), [.inactive, .sendonly])
        XCTAssertEqual(sdp.media.map(\.setup), [.passive, .passive])
        XCTAssertEqual(sdp.media.map(\.rtcpMux), [true, true])
        XCTAssertEqual(sdp.media[1].formats, ["96", "97"])
    }

    func testAnswerMirrorsMissingRtcpMux() throws {
        var offer = try publisher().build()
        offer.media[0].removeAttributes { $0 == .rtcpMux }
        let sdp = SDPAnswer(offer: offer, capabilities: [.audio: [.opus()], .video: [.vp8()]], transport: transport()).build()
        XCTAssertEqual(sdp.media.map(\.rtcpMux), [false, true])
    }

    func testOwnOfferAndAnswerAgreeOnCodecs() throws {
        let offer = try SessionDescription.parse(publisher().build().serialize())
        let answer = SDPAnswer(offer: offer, capabilities: [.audio: [.opus()], .video: [.vp8(), .h264()]], transport: transport()).build()
        XCTAssertEqual(answer.media[1].codecs.map(\.name), ["H264", "rtx", "VP8", "rtx"])
        XCTAssertEqual(answer.media[1].codecs.first?.parameters.value("profile-level-id"), "42e01f")
        XCTAssertEqual(answer.media[0].codecs.map(\.payloadType), [111])
    }
}
