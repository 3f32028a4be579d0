import ICE
import RTCBase
import WebRTCTestKit
import XCTest

final class IceCandidateTests: XCTestCase {
    func testParsesHostAndReflexiveCandidatesFromSdp() throws {
        // Chromium's host candidate with its extension attributes after the type.
        let host = try XCTUnwrap(IceCandidate(sdp: "candidate:3637488402 1 udp 2122260223 127.0.0.1 54321 typ host generation 0 network-id 1"))
        XCTAssertEqual(host.foundation, "3637488402")
        XCTAssertEqual(host.priority, 2_122_260_223)
        XCTAssertEqual(host.address, SocketAddress("127.0.0.1:54321"))
        XCTAssertEqual(host.type, .host)
        XCTAssertNil(host.relatedAddress)
        let relay = try XCTUnwrap(IceCandidate(sdp: "7 1 UDP 16777215 127.0.0.1 49160 typ relay raddr 127.0.0.1 rport 5000"))
        XCTAssertEqual(relay.type, .relay)
        XCTAssertEqual(relay.relatedAddress, SocketAddress("127.0.0.1:5000"))
        XCTAssertEqual(IceCandidate(sdp: relay.description), relay)
        let v6 = try XCTUnwrap(IceCandidate(sdp: "1 1 udp 2130706431 ::1 9 typ host"))
        XCTAssertEqual(v6.address.family, .ipv6)
    }

    func testRejectsTcpSecondComponentsAndMalformedLines() {
        for line in [
            "1 1 tcp 2130706431 127.0.0.1 9 typ host tcptype active",  // TCP
            "1 2 udp 2130706431 127.0.0.1 9 typ host",  // RTCP component
            "1 1 udp 2130706431 example.local 9 typ host",  // mDNS name
            "1 1 udp 99999999999 127.0.0.1 9 typ host",  // priority overflow
            "1 1 udp 1 127.0.0.1 70000 typ host",  // port overflow
            "1 1 udp 1 127.0.0.1 9 typ magic",  // unknown type
            "1 1 udp 1 127.0.0.1 9",  // no type
            "",
        ] {
            XCTAssertNil(IceCandidate(sdp: line), line)
        }
    }

    func testParserSurvivesHundredThousandMutatedLines() {
        let seeds = [
            "candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host",
            "2 1 udp 16777215 127.0.0.1 49160 typ relay raddr 127.0.0.1 rport 5000",
            "3 1 udp 1694498815 [2001:db8::1] 9 typ srflx raddr :: rport 0 generation 0",
        ].map { Array($0.utf8) }
        var fuzzer = Fuzzer(seeds: seeds, seed: 0xCA, maxLength: 120)
        var parsed = 0
        fuzzer.run(iterations: 100_000) { input in
            if let candidate = IceCandidate(sdp: String(decoding: input, as: UTF8.self)) {
                parsed += 1
                XCTAssertEqual(IceCandidate(sdp: candidate.description), candidate)
            }
        }
        XCTAssertGreaterThan(parsed, 1_000)
    }
}
