import RTP
import Foundation
import PeerCore
import RTCBase
import SDP
import WebRTCTestKit
import XCTest

final class PeerSignalingTests: XCTestCase {
    static let local = SocketAddress(ipv4: 10, 0, 0, 1, port: 5000)

    func makePublisher(seed: UInt64 = 3) throws -> Peer {
        try Peer(
            configuration: PeerConfiguration(
                role: .offerer,
                transceivers: [.audio("0", .sendonly), .video("1", .sendonly, codecs: [.h264()])],
                localAddresses: [Self.local], seed: seed),
            now: Instant(nanoseconds: 1_000_000_000))
    }

    /// The SDP of SRS 7's answer to a WHIP-style publish (`code: 0`).
    func srsAnswer() throws -> String {
        let response = try Fixtures.text("srs/publish.response.http")
        let body = try XCTUnwrap(response.range(of: "\r\n\r\n")).upperBound
        let json = try JSONSerialization.jsonObject(with: Data(response[body...].utf8)) as? [String: Any]
        return try XCTUnwrap(json?["sdp"] as? String)
    }

    func testOfferCarriesWhatSrsNeeds() throws {
        let offer = try SessionDescription.parse(try makePublisher().createOffer(now: Instant(nanoseconds: 1_000_000_000)))
        XCTAssertEqual(offer.bundleMids, ["0", "1"])
        for section in offer.media {
            XCTAssertTrue(section.rtcpMux)
            XCTAssertTrue(section.rtcpRsize)
            XCTAssertEqual(section.setup, .actpass)
            XCTAssertEqual(section.msids.count, 1)
            XCTAssertNotNil(section.ssrcs.first?.cname)
            XCTAssertNotNil(section.iceUfrag)
            XCTAssertEqual(section.fingerprints.first?.hashFunction, "sha-256")
            XCTAssertEqual(section.candidates.map(\.address), ["10.0.0.1"])
            XCTAssertEqual(section.candidates.first?.port, 5000)
            XCTAssertTrue(section.endOfCandidates)
        }
        XCTAssertEqual(offer.media[1].codecs.first?.parameters.value("profile-level-id"), "42e01f")
    }

    func testSrsAnswerConfiguresIceLiteDtlsClientAndSrsPayloadTypes() throws {
        let peer = try makePublisher()
        let now = Instant(nanoseconds: 1_000_000_000)
        _ = try peer.createOffer(now: now)
        try peer.setRemoteAnswer(try srsAnswer(), now: now + .milliseconds(30))
        XCTAssertEqual(peer.iceRole, .controlling)
        XCTAssertEqual(peer.dtlsRole, .client)  // SRS says a=setup:passive
        XCTAssertEqual(peer.remoteCandidates.map(\.address), [SocketAddress("127.0.0.1:8000")])
        XCTAssertEqual(peer.sections.map(\.codec), [.opus, .h264])
        XCTAssertEqual(peer.sections.map(\.payloadType), [96, 101])  // SRS's numbers, not our 111 and 102
        XCTAssertEqual(peer.sections.map(\.direction), [.sendonly, .sendonly])
        XCTAssertEqual(peer.sections.map(\.nack), [false, true])
        XCTAssertEqual(try XCTUnwrap(peer.timeline.signalingMs), 30, accuracy: 0.001)
        // The first connectivity check goes to SRS's only candidate: a STUN Binding request.
        peer.handleTimeout(now: now + .milliseconds(30))
        let check = try XCTUnwrap(peer.pollTransmit())
        XCTAssertEqual(check.destination, SocketAddress("127.0.0.1:8000"))
        XCTAssertEqual(Array(check.payload.prefix(2)), [0x00, 0x01])  // Binding request
        XCTAssertEqual(Array(check.payload[4..<8]), [0x21, 0x12, 0xA4, 0x42])  // magic cookie
        // USERNAME is "<SRS ufrag>:<our ufrag>" (RFC 8445 7.2.2).
        XCTAssertNotNil(String(decoding: check.payload, as: UTF8.self).range(of: "92855231:"))
    }

    func testSrsEmptyAnswerIsRejectedWithTheMsidSsrcHint() throws {
        let peer = try makePublisher()
        _ = try peer.createOffer(now: Instant(nanoseconds: 1_000_000_000))
        let answer = try srsAnswer()
        let firstSection = try XCTUnwrap(answer.range(of: "m=audio")).lowerBound
        let sessionOnly = String(answer[..<firstSection])
        XCTAssertThrowsError(try peer.setRemoteAnswer(sessionOnly, now: Instant(nanoseconds: 1_000_000_000))) { error in
            XCTAssertTrue("\(error)".hasPrefix("answer has no media sections: check msid/ssrc"), "\(error)")
        }
        XCTAssertEqual(peer.failure?.phase, .signaling)
        var log = EventLog()
        log.drain(peer)
        XCTAssertEqual(log.failures.first?.phase, .signaling)
    }

    func testAnswerWithoutCommonCodecSaysWhichCodecsMet() throws {
        let peer = try makePublisher()
        _ = try peer.createOffer(now: Instant(nanoseconds: 1_000_000_000))
        let answer = try srsAnswer()
            .replacingOccurrences(of: "a=rtpmap:101 H264/90000", with: "a=rtpmap:101 VP8/90000")
        XCTAssertThrowsError(try peer.setRemoteAnswer(answer, now: Instant(nanoseconds: 1_000_000_000))) { error in
            XCTAssertEqual("\(error)", "no common video codec: answer has VP8, we offered H264")
        }
    }

    func testVp8OnlyOfferToAnH264OnlyAnswererIsRejectedInWords() throws {
        let peer = try makeAnswerer(video: [.h264()])
        XCTAssertThrowsError(try peer.setRemoteOffer(try Fixtures.text("chromium/offer-vp8-only.sdp"), now: .zero)) { error in
            XCTAssertTrue("\(error)".hasPrefix("no common video codec: offered VP8"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("we accept H264"), "\(error)")
        }
    }

    func makeAnswerer(video: [CodecCapability] = [.vp8(), .vp9(), .h264()]) throws -> Peer {
        try Peer(
            configuration: PeerConfiguration(
                role: .answerer, transceivers: [.audio(), .video(codecs: video)], localAddresses: [Self.local], seed: 5),
            now: .zero)
    }

    func testAiortcAndChromiumOffersGetAnswersWithTheirMidsCodecsAndSetupActive() throws {
        let fixtures = [
            "aiortc/offer-sendrecv-vp8-opus.sdp", "aiortc/offer-sendonly-h264-opus.sdp", "aiortc/offer-recvonly-default-codecs.sdp",
            "chromium/offer-vp8-only.sdp", "chromium/offer-vp9-only.sdp", "chromium/offer-h264-only.sdp",
            "chromium/pair-offer.sdp", "chromium/pair-offer-before-gathering.sdp",
        ]
        for fixture in fixtures {
            let text = try Fixtures.text(fixture)
            let offer = try SessionDescription.parse(text)
            let peer = try makeAnswerer()
            try peer.setRemoteOffer(text, now: .zero)
            let answer = try SessionDescription.parse(try peer.createAnswer(now: .zero))
            XCTAssertEqual(answer.media.map(\.mid), offer.media.map(\.mid), fixture)
            XCTAssertEqual(answer.bundleMids, offer.media.compactMap(\.mid), fixture)
            XCTAssertEqual(peer.dtlsRole, .client, fixture)
            XCTAssertEqual(peer.iceRole, .controlled, fixture)
            for (answered, offered) in zip(answer.media, offer.media) {
                XCTAssertEqual(answered.setup, .active, fixture)
                let codec = try XCTUnwrap(answered.codecs.first, fixture)
                // Same payload type and name as offered (RFC 3264 6.1), one we packetize.
                XCTAssertEqual(offered.codec(codec.payloadType)?.name, codec.name, fixture)
                XCTAssertNotNil(Codec(encodingName: codec.name), fixture)
                let offeredDirection = offered.direction ?? .sendrecv
                XCTAssertEqual(answered.direction, offeredDirection.reversed, fixture)
                XCTAssertEqual(answered.ssrcs.isEmpty, !(answered.direction?.sends ?? false), fixture)
            }
            XCTAssertEqual(peer.sections.map(\.mid), offer.media.compactMap(\.mid), fixture)
        }
    }

    /// Chromium's offer for a call with only a data channel (captured from the /peer page):
    /// a peer that takes data channels answers its one section (RFC 8841), though none of
    /// its audio and video transceivers has a section to take; without data channels the
    /// offer is refused in words.
    func testChromiumDataChannelOnlyOfferIsAnsweredByAPeerThatTakesDataChannels() throws {
        let text = try Fixtures.text("chromium/offer-datachannel-only.sdp")
        var configuration = PeerConfiguration(role: .answerer, transceivers: [.audio(), .video()], localAddresses: [Self.local], seed: 5)
        configuration.dataChannels = true
        let peer = try Peer(configuration: configuration, now: .zero)
        try peer.setRemoteOffer(text, now: .zero)
        let answer = try SessionDescription.parse(try peer.createAnswer(now: .zero))
        XCTAssertEqual(answer.media.map { "\($0.kind) \($0.proto) \($0.formats)" }, ["application UDP/DTLS/SCTP [\"webrtc-datachannel\"]"])
        XCTAssertEqual(answer.media.map(\.mid), ["0"])
        XCTAssertEqual(answer.bundleMids, ["0"])
        XCTAssertNotEqual(answer.media.first?.port, 0, "accepted, not rejected")
        XCTAssertEqual(answer.media.first?.setup, .active)
        XCTAssertEqual(answer.media.first?.sctpPort, 5000)
        XCTAssertEqual(peer.dtlsRole, .client)
        XCTAssertEqual(peer.sections.count, 0, "no media section")

        let plain = try makeAnswerer()
        XCTAssertThrowsError(try plain.setRemoteOffer(text, now: .zero)) { error in
            XCTAssertEqual("\(error)", "offer has no section we can accept: it has [\"application\"], we have [\"audio\", \"video\"]")
        }
    }

    func testAv1OnlyVideoOfferIsAnsweredByAPeerThatOffersAv1() throws {
        let peer = try makeAnswerer(video: [.av1()])
        try peer.setRemoteOffer(try Fixtures.text("chromium/offer-av1-only.sdp"), now: .zero)
        let answer = try SessionDescription.parse(try peer.createAnswer(now: .zero))
        XCTAssertEqual(answer.media[1].codecs.first?.name, "AV1")
    }

    func testAv1OnlyVideoOfferIsRefusedWithoutAv1() throws {
        let peer = try makeAnswerer()
        XCTAssertThrowsError(try peer.setRemoteOffer(try Fixtures.text("chromium/offer-av1-only.sdp"), now: .zero)) { error in
            XCTAssertTrue("\(error)".hasPrefix("no common video codec: offered AV1"), "\(error)")
        }
    }

    func testConfigurationErrorsAreNamed() {
        func message(_ transceivers: [PeerTransceiver]) -> String? {
            do {
                _ = try Peer(configuration: PeerConfiguration(role: .offerer, transceivers: transceivers, localAddresses: [Self.local], seed: 1), now: .zero)
                return nil
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(message([]), "nothing to negotiate: add audio, video or data channels")
        XCTAssertEqual(message([.audio("0"), .video("0")]), "mid 0 is used twice")
        let h266 = CodecCapability(name: "H266", clockRate: 90_000, payloadType: 45)
        XCTAssertEqual(message([.video(codecs: [h266])]), "codec H266 of 1 cannot be packetized (VP8, VP9, H264, H265, AV1, opus)")
    }
}
