import LibSRTPReference
import RTCBase
import SRTP
import XCTest

/// rtcswarm's SRTP against libsrtp2, bit for bit and in both directions: thousands of
/// packets of random sizes on several SSRCs, with sequence numbers that wrap so the
/// rollover counter moves past 65535.
final class SrtpLibsrtpCrossCheckTests: XCTestCase {
    private struct Stream {
        let ssrc: UInt32
        var sequence: UInt16
    }

    func testAesCm80MatchesLibsrtpInBothDirections() throws {
        try crossCheck(.aesCm128HmacSha1_80)
    }

    func testAesCm32MatchesLibsrtpInBothDirections() throws {
        try crossCheck(.aesCm128HmacSha1_32)
    }

    func testAeadAes128GcmMatchesLibsrtpInBothDirections() throws {
        try crossCheck(.aeadAes128Gcm)
    }

    private func crossCheck(_ profile: SrtpProfile) throws {
        var generator = SeededGenerator(seed: 0x5172 + UInt64(profile.rtpTagLength))
        let key = (0..<profile.masterKeyLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let salt = (0..<profile.masterSaltLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Debian's libsrtp2 supports all three profiles: a refusal is a failure, never a skip.
        let libSender = try XCTUnwrap(LibSrtpSession(profile: profile, masterKey: key, masterSalt: salt, direction: .outbound),
                                      "libsrtp2 refused \(profile)")
        let libReceiver = try XCTUnwrap(LibSrtpSession(profile: profile, masterKey: key, masterSalt: salt, direction: .inbound),
                                        "libsrtp2 refused \(profile)")
        let ourSender = SrtpContext(profile: profile, masterKey: key, masterSalt: salt)
        let ourReceiver = SrtpContext(profile: profile, masterKey: key, masterSalt: salt)
        // Starts near the top of the sequence space so every stream wraps at least once.
        var streams = [
            Stream(ssrc: 0x1111_1111, sequence: 64_000), Stream(ssrc: 0xDEAD_BEEF, sequence: 65_535),
            Stream(ssrc: 7, sequence: 100),
        ]
        var rtpChecked = 0
        var rtcpChecked = 0
        for round in 0..<4_500 {
            let pick = round % streams.count
            let csrcs = round % 7 == 0 ? Int.random(in: 1...3, using: &generator) : 0
            let extensionWords = round % 5 == 0 ? Int.random(in: 1...4, using: &generator) : 0
            let plain = SrtpTestPackets.rtp(
                sequence: streams[pick].sequence, ssrc: streams[pick].ssrc,
                payloadLength: Int.random(in: 0...1200, using: &generator), csrcCount: csrcs,
                extensionWords: extensionWords, using: &generator)
            streams[pick].sequence &+= 1

            let ours = try ourSender.protectRtp(plain)
            let theirs = try XCTUnwrap(libSender.protectRtp(plain), "libsrtp protect, round \(round)")
            XCTAssertTrue(ours == theirs, "SRTP bytes differ from libsrtp, round \(round)")
            XCTAssertEqual(ours.count, plain.count + profile.rtpTagLength)
            XCTAssertTrue(libReceiver.unprotectRtp(ours) == plain, "libsrtp rejects ours, round \(round)")
            XCTAssertTrue(try ourReceiver.unprotectRtp(theirs) == plain, "we reject libsrtp's, round \(round)")
            rtpChecked += 1

            if round % 9 == 0 {
                let report = SrtpTestPackets.rtcp(
                    ssrc: streams[pick].ssrc, blocks: Int.random(in: 0...3, using: &generator), using: &generator)
                let ours = try ourSender.protectRtcp(report)
                let theirs = try XCTUnwrap(libSender.protectRtcp(report))
                XCTAssertTrue(ours == theirs, "SRTCP bytes differ from libsrtp, round \(round)")
                XCTAssertTrue(libReceiver.unprotectRtcp(ours) == report, "libsrtp rejects our SRTCP, round \(round)")
                XCTAssertTrue(try ourReceiver.unprotectRtcp(theirs) == report, "we reject libsrtp's SRTCP, round \(round)")
                rtcpChecked += 1
            }
        }
        XCTAssertEqual(rtpChecked, 4_500)
        XCTAssertEqual(rtcpChecked, 500)
    }
}
