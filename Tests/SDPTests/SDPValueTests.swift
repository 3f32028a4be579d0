import RTCBase
import SDP
import XCTest

final class SDPValueTests: XCTestCase {
    func testCandidateGrammarWithRelatedAddressAndUnknownExtensions() throws {
        // RFC 8839 5.1: foundation component transport priority address port typ type raddr rport ext*
        let text = "candidate:842163049 1 udp 1677729535 203.0.113.7 46154 typ srflx raddr 10.0.0.2 rport 46154 generation 0 ufrag Xb7w network-cost 999"
        let candidate = try Candidate(parsing: Substring(text))
        XCTAssertEqual(candidate.kind, .srflx)
        XCTAssertEqual(candidate.relatedAddress, "10.0.0.2")
        XCTAssertEqual(candidate.relatedPort, 46154)
        XCTAssertEqual(candidate.generation, 0)
        XCTAssertEqual(candidate.extensions, [SDPParameter("ufrag", "Xb7w"), SDPParameter("network-cost", "999")])
        XCTAssertEqual(candidate.description, text)
        XCTAssertEqual(try Candidate(parsing: Substring(candidate.attributeValue)), candidate)
    }

    func testRelayAndIPv6AndMDNSCandidates() throws {
        let relay = try Candidate(parsing: "3 1 UDP 41885439 198.51.100.1 3478 typ relay raddr 203.0.113.7 rport 50000")
        XCTAssertEqual(relay.kind, .relay)
        XCTAssertEqual(relay.transport, "UDP")
        let v6 = try Candidate(parsing: "1 1 udp 2122262783 ::1 5000 typ host")
        XCTAssertEqual(v6.socketAddress, SocketAddress(host: "::1", port: 5000))
        let mdns = try Candidate(parsing: "1 1 udp 2122262783 4f1c3a.local 5000 typ host")
        XCTAssertNil(mdns.socketAddress)
        XCTAssertThrowsError(try Candidate(parsing: "1 1 udp 2122262783 ::1 5000 typ bogus"))
        XCTAssertThrowsError(try Candidate(parsing: "1 1 udp 4294967296 ::1 5000 typ host"))
    }

    func testFingerprintFromDigestIsUppercaseColonHex() {
        let fingerprint = Fingerprint(digest: [0x0a, 0xff, 0x10])
        XCTAssertEqual(fingerprint.description, "sha-256 0A:FF:10")
        XCTAssertTrue(fingerprint.matches(Fingerprint(hashFunction: "SHA-256", value: "0a:ff:10")))
        XCTAssertFalse(fingerprint.matches(Fingerprint(hashFunction: "sha-1", value: "0A:FF:10")))
    }

    func testExtmapWithDirectionAndAttributes() throws {
        let extmap = try ExtMap(parsing: "7/recvonly urn:ietf:params:rtp-hdrext:toffset extra")
        XCTAssertEqual(extmap, ExtMap(id: 7, direction: .recvonly, uri: "urn:ietf:params:rtp-hdrext:toffset", attributes: "extra"))
        XCTAssertEqual(extmap.description, "7/recvonly urn:ietf:params:rtp-hdrext:toffset extra")
        XCTAssertThrowsError(try ExtMap(parsing: "7/sideways urn:x"))
    }

    func testWildcardFeedbackAppliesToEveryCodec() throws {
        let text = "v=0\r\no=- 1 2 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96 97\r\n"
            + "a=rtpmap:96 VP8/90000\r\na=rtpmap:97 VP9/90000\r\na=rtcp-fb:* nack\r\na=rtcp-fb:97 ccm fir\r\n"
        let codecs = try SessionDescription.parse(text).media[0].codecs
        XCTAssertEqual(codecs.map(\.feedback), [[.nack], [.nack, .fir]])
    }

    func testDirectionSetterReplacesInPlace() throws {
        var section = MediaDescription(kind: .audio, formats: [])
        section.append(.mid("0"))
        section.append(.direction(.sendrecv))
        section.append(.rtcpMux)
        section.direction = .recvonly
        XCTAssertEqual(section.attributes, [.mid("0"), .direction(.recvonly), .rtcpMux])
        section.direction = nil
        XCTAssertEqual(section.attributes, [.mid("0"), .rtcpMux])
    }

    func testTrickledCandidateGoesBeforeEndOfCandidates() throws {
        var section = MediaDescription(kind: .audio, formats: [])
        section.append(.endOfCandidates)
        section.addCandidate(try Candidate(parsing: "1 1 udp 1 127.0.0.1 5000 typ host"))
        XCTAssertEqual(section.lines.map(\.text), ["a=candidate:1 1 udp 1 127.0.0.1 5000 typ host", "a=end-of-candidates"])
    }

    func testSessionLevelIceFingerprintAndSetupApplyToSectionsWithoutTheirOwn() throws {
        let text = "v=0\r\no=- 1 2 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\na=ice-ufrag:sess\r\na=ice-pwd:sessionpwd\r\n"
            + "a=fingerprint:sha-256 AA:BB\r\na=setup:passive\r\n"
            + "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:a\r\n"
            + "m=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:v\r\na=ice-ufrag:own\r\na=ice-pwd:ownpwd\r\na=setup:active\r\n"
        let sdp = try SessionDescription.parse(text)
        let audio = try XCTUnwrap(sdp.section(mid: "a"))
        let video = try XCTUnwrap(sdp.section(mid: "v"))
        XCTAssertEqual(sdp.iceCredentials(of: audio)?.ufrag, "sess")
        XCTAssertEqual(sdp.iceCredentials(of: video)?.pwd, "ownpwd")
        XCTAssertEqual(sdp.fingerprints(of: video).first?.digest, [0xaa, 0xbb])
        XCTAssertEqual(sdp.setup(of: audio), .passive)
        XCTAssertEqual(sdp.setup(of: video), .active)
        XCTAssertNil(sdp.section(mid: "x"))
    }

    func testDirectionReversal() {
        XCTAssertEqual(MediaDirection.sendonly.reversed, .recvonly)
        XCTAssertEqual(MediaDirection.recvonly.reversed, .sendonly)
        XCTAssertEqual(MediaDirection.sendrecv.reversed, .sendrecv)
        XCTAssertEqual(MediaDirection.inactive.reversed, .inactive)
        XCTAssertEqual(SetupRole.actpass.answer, .active)
        XCTAssertEqual(SetupRole.active.answer, .passive)
        XCTAssertEqual(SetupRole.passive.answer, .active)
    }
}
