import RTCBase
import SDP
import XCTest

/// Concrete values read from the captures (fixtures/README.md lists what each holds).
final class SDPFixtureValueTests: XCTestCase {
    func testChromiumOfferHas23VideoPayloadTypesAndSessionIDAbove2To53() throws {
        let sdp = try SessionDescription.parse(SDPFixtureCorpus.sdp("chromium/pair-offer.sdp"))
        XCTAssertEqual(sdp.origin.sessionID, "299858935012684124")
        XCTAssertGreaterThan(UInt64(sdp.origin.sessionID) ?? 0, UInt64(1) << 53)
        XCTAssertEqual(sdp.origin.sessionVersion, "2")
        let av1 = try SessionDescription.parse(SDPFixtureCorpus.sdp("chromium/offer-av1-only.sdp"))
        XCTAssertEqual(av1.origin.sessionID, "7654209940855909131")
        XCTAssertEqual(av1.media[1].codecs.map(\.name), ["AV1", "rtx"])
        XCTAssertEqual(sdp.msidSemantic, MsidSemantic(identifiers: ["6e615455-4e35-49e4-865b-9c88031ef72a"]))
        XCTAssertEqual(sdp.iceOptions, [])
        let video = try XCTUnwrap(sdp.media.last)
        XCTAssertEqual(video.kind, .video)
        XCTAssertEqual(video.formats.count, 23)
        XCTAssertEqual(video.codecs.count, 23)
        XCTAssertEqual(video.codecs.filter { $0.name == "H264" }.count, 6)
        XCTAssertEqual(video.codecs.filter(\.isRTX).count, 11)
        XCTAssertEqual(video.codec(97)?.associatedPayloadType, 96)
        XCTAssertEqual(video.codec(108)?.profileLevelID, H264ProfileLevelID(profile: .constrainedBaseline, level: .level3_1))
        XCTAssertEqual(video.codec(116)?.profileLevelID?.profile, .main)
        XCTAssertEqual(video.codec(104)?.packetizationMode, 0)
        XCTAssertEqual(video.codec(96)?.feedback, [.remb, .transportCC, .fir, .nack, .pli])
        XCTAssertEqual(video.extmaps.count, 11)
        XCTAssertEqual(video.extmaps.first, ExtMap(id: 14, uri: "urn:ietf:params:rtp-hdrext:toffset"))
        XCTAssertEqual(video.iceOptions, ["trickle"])
        XCTAssertEqual(video.direction, .sendrecv)
        XCTAssertEqual(video.setup, .actpass)
        XCTAssertTrue(video.rtcpRsize)
        XCTAssertEqual(video.ssrcGroups, [SSRCGroup(semantics: "FID", ssrcs: [2_541_776_445, 206_696_345])])
        XCTAssertEqual(video.ssrcs.map(\.ssrc), [2_541_776_445, 206_696_345])
        XCTAssertEqual(video.ssrcs.first?.cname, "Dx7JAOugNRv3DYch")
        XCTAssertEqual(video.ssrcs.first?.msid?.trackID, "5cc70cdb-b733-4128-b2eb-0e4b5e4a78a6")
        XCTAssertEqual(video.msids, [Msid(streamID: "6e615455-4e35-49e4-865b-9c88031ef72a", trackID: "5cc70cdb-b733-4128-b2eb-0e4b5e4a78a6")])
        let audio = try XCTUnwrap(sdp.media.first)
        XCTAssertEqual(audio.codecs.map(\.name), ["opus", "red", "G722", "PCMU", "PCMA", "CN", "telephone-event", "telephone-event"])
        XCTAssertEqual(audio.codec(63)?.parameters, [SDPParameter("111/111", nil)])
        XCTAssertEqual(audio.codec(111)?.parameters.value("useinbandfec"), "1")
        XCTAssertEqual(audio.attributes(named: "rtcp-xr"), ["rcvr-rtt=all"])
    }

    func testChromiumCandidatesIncludeTcpActivePort9() throws {
        let sdp = try SessionDescription.parse(SDPFixtureCorpus.sdp("chromium/pair-offer.sdp"))
        let candidates = try XCTUnwrap(sdp.media.first?.candidates)
        XCTAssertEqual(candidates.count, 2)
        let udp = candidates[0]
        XCTAssertEqual(udp.foundation, "1022719875")
        XCTAssertEqual(udp.priority, 2_122_260_223)
        XCTAssertEqual(udp.socketAddress, SocketAddress("127.0.0.1:53453"))
        XCTAssertEqual(udp.kind, .host)
        XCTAssertEqual(udp.generation, 0)
        XCTAssertEqual(udp.extensions, [SDPParameter("network-id", "1"), SDPParameter("network-cost", "50")])
        let tcp = candidates[1]
        XCTAssertEqual(tcp.transport, "tcp")
        XCTAssertEqual(tcp.port, 9)
        XCTAssertEqual(tcp.tcpType, "active")
    }

    func testChromiumAnswerCarriesCandidatesOnlyInFirstSection() throws {
        let sdp = try SessionDescription.parse(SDPFixtureCorpus.sdp("chromium/pair-answer.sdp"))
        XCTAssertEqual(sdp.media.map { $0.candidates.count }, [1, 0])
        XCTAssertEqual(sdp.media[1].port, 9)
        XCTAssertEqual(sdp.media[1].connection, ConnectionData(address: "0.0.0.0"))
        XCTAssertEqual(sdp.media.map(\.setup), [.active, .active])
    }

    func testChromiumOfferBeforeGatheringHasNoCandidatesAndPort9() throws {
        let sdp = try SessionDescription.parse(SDPFixtureCorpus.sdp("chromium/pair-offer-before-gathering.sdp"))
        XCTAssertEqual(sdp.media.map(\.port), [9, 9])
        XCTAssertEqual(sdp.media.flatMap(\.candidates), [])
    }

    func testSRSPublishAnswerIsIceLitePassiveWithOneLoopbackCandidate() throws {
        let sdp = try SessionDescription.parse(SDPFixtureCorpus.sdp("srs/publish.response.http"))
        XCTAssertTrue(sdp.iceLite)
        XCTAssertEqual(sdp.origin.username, "SRS/7.0.18(Hang)")
        XCTAssertEqual(sdp.sessionName, "SRSPublishSession")
        XCTAssertEqual(sdp.msidSemantic?.identifiers, ["live/livestream"])
        for section in sdp.media {
            XCTAssertEqual(section.setup, .passive)
            XCTAssertEqual(section.direction, .recvonly)
            XCTAssertEqual(section.connection?.address, "0.0.0.0")
            XCTAssertEqual(section.candidates.count, 1)
            XCTAssertEqual(section.candidates.first?.socketAddress, SocketAddress("127.0.0.1:8000"))
            XCTAssertEqual(section.candidates.first?.priority, 2_130_706_431)
            XCTAssertFalse(section.endOfCandidates)
            XCTAssertEqual(section.iceUfrag?.count, 8)
            XCTAssertEqual(section.ssrcs, [])
        }
        let video = sdp.media[1]
        XCTAssertEqual(video.codecs.map(\.payloadType), [101])
        XCTAssertEqual(video.codecs.first?.parameters.value("profile-level-id"), "42e01f")
    }

    func testSRSPlayAnswerHasLegacySSRCLinesAndNoMsid() throws {
        let sdp = try SessionDescription.parse(SDPFixtureCorpus.sdp("srs/play.response.http"))
        XCTAssertEqual(sdp.sessionName, "SRSPlaySession")
        for section in sdp.media {
            XCTAssertEqual(section.msids, [])
            XCTAssertEqual(section.direction, .sendonly)
            let ssrc = try XCTUnwrap(section.ssrcs.first)
            XCTAssertEqual(ssrc.attributes.map(\.name), ["cname", "msid", "mslabel", "label"])
            XCTAssertNotNil(ssrc.cname)
            XCTAssertEqual(ssrc.mslabel, ssrc.msid?.streamID)
            XCTAssertEqual(ssrc.label, ssrc.msid?.trackID)
        }
    }

    func testSRSNoMsidTrapAnswerHasZeroMediaSections() throws {
        let text = try SDPFixtureCorpus.sdp("srs/error-no-msid-ssrc.response.http")
        XCTAssertEqual(text.utf8.count, 131)
        let sdp = try SessionDescription.parse(text)
        XCTAssertEqual(sdp.media.count, 0)
        XCTAssertTrue(sdp.iceLite)
        XCTAssertEqual(sdp.msidSemantic?.identifiers, ["live/nossrc"])
        let offer = try SessionDescription.parse(SDPFixtureCorpus.sdp("srs/error-no-msid-ssrc.request.json"))
        XCTAssertEqual(offer.media.flatMap(\.msids), [])
        XCTAssertEqual(offer.media.flatMap(\.ssrcs), [])
    }

    func testAiortcOfferHasThreeFingerprintsAndCandidatesBeforeCredentials() throws {
        let sdp = try SessionDescription.parse(SDPFixtureCorpus.sdp("aiortc/offer-sendonly-h264-opus.sdp"))
        XCTAssertEqual(sdp.origin.address, "0.0.0.0")
        XCTAssertEqual(sdp.msidSemantic, MsidSemantic(identifiers: ["*"]))
        let video = sdp.media[1]
        XCTAssertEqual(video.fingerprints.map(\.hashFunction), ["sha-256", "sha-384", "sha-512"])
        XCTAssertEqual(video.fingerprints.map { $0.digest?.count }, [32, 48, 64])
        XCTAssertTrue(video.endOfCandidates)
        XCTAssertEqual(video.direction, .sendonly)
        XCTAssertEqual(video.codecs.map(\.payloadType), [99, 100, 101, 102])
        XCTAssertEqual(video.codec(99)?.parameters.value("profile-level-id"), "42001f")
        XCTAssertEqual(video.codec(102)?.associatedPayloadType, 101)
        XCTAssertEqual(video.ssrcGroups.first?.ssrcs, [2_106_898_364, 635_146_982])
        XCTAssertEqual(video.attributes(named: "rtcp"), ["9 IN IP4 0.0.0.0"])
        let candidate = try XCTUnwrap(video.candidates.first)
        XCTAssertEqual(candidate.foundation, "16572de626da4e5384a0ce2d0d93678a")
        XCTAssertNil(candidate.generation)
        XCTAssertEqual(candidate.port, video.port)
    }

    func testJanusVideoRoomIdsAndSubscriberOffer() throws {
        let sdps = try SDPFixtureCorpus.janus("janus/videoroom.jsonl")
        XCTAssertEqual(sdps.count, 4)
        let publisherAnswer = try SessionDescription.parse(sdps[1])
        XCTAssertEqual(publisherAnswer.sessionName, "VideoRoom 4661667421306650")
        XCTAssertEqual(UInt64(publisherAnswer.sessionName.dropFirst("VideoRoom ".count)), 4_661_667_421_306_650)
        XCTAssertEqual(publisherAnswer.fingerprints.count, 1)
        XCTAssertEqual(publisherAnswer.media.map(\.direction), [.recvonly, .recvonly])
        XCTAssertEqual(publisherAnswer.media[1].ssrcs.count, 1)
        XCTAssertEqual(publisherAnswer.media[1].ssrcGroups, [])
        let subscriberOffer = try SessionDescription.parse(sdps[2])
        XCTAssertEqual(subscriberOffer.origin.sessionID, "1795966319436817")
        XCTAssertEqual(subscriberOffer.media.map(\.setup), [.actpass, .actpass])
        XCTAssertEqual(subscriberOffer.media[0].codecs.map(\.payloadType), [111])
        XCTAssertEqual(subscriberOffer.media[1].codecs.map(\.name), ["VP8", "rtx"])
        XCTAssertEqual(subscriberOffer.media[1].codec(97)?.associatedPayloadType, 96)
        XCTAssertEqual(subscriberOffer.media[1].msids, [Msid(streamID: "janus", trackID: "janus1")])
        XCTAssertTrue(subscriberOffer.media[1].endOfCandidates)
        XCTAssertEqual(subscriberOffer.media[1].candidates.first?.priority, 2_015_363_583)
    }

    func testJanusEchoH264AnswerKeepsFirstOfferedProfileAndRTX() throws {
        let sdps = try SDPFixtureCorpus.janus("janus/echo-h264.jsonl")
        let answer = try SessionDescription.parse(sdps[1])
        let video = answer.media[1]
        XCTAssertEqual(video.codecs.first?.payloadType, 99)
        XCTAssertEqual(video.codecs.first?.parameters.value("profile-level-id"), "42001f")
        XCTAssertTrue(video.codecs.contains(where: \.isRTX))
    }
}
