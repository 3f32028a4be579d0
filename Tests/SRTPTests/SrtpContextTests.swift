import RTCBase
import SRTP
import XCTest

/// Replay protection, tamper detection and malformed input, for every profile.
final class SrtpContextTests: XCTestCase {
    private var generator = SeededGenerator(seed: 99)

    private func pair(_ profile: SrtpProfile) -> (sender: SrtpContext, receiver: SrtpContext) {
        let key = [UInt8](repeating: 0x2b, count: profile.masterKeyLength)
        let salt = [UInt8](repeating: 0x7e, count: profile.masterSaltLength)
        return (
            SrtpContext(profile: profile, masterKey: key, masterSalt: salt),
            SrtpContext(profile: profile, masterKey: key, masterSalt: salt)
        )
    }

    private func rtp(_ sequence: UInt16, ssrc: UInt32 = 0x0102_0304, length: Int = 160) -> [UInt8] {
        SrtpTestPackets.rtp(sequence: sequence, ssrc: ssrc, payloadLength: length, using: &generator)
    }

    private func assertThrows(
        _ code: ParseError.Code, _ body: () throws(ParseError) -> [UInt8], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        do {
            _ = try body()
            XCTFail("expected \(code)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.code, code, file: file, line: line)
        }
    }

    func testReplayedPacketIsRejectedForEveryProfile() throws {
        for profile in SrtpProfile.allCases {
            let (sender, receiver) = pair(profile)
            let packet = try sender.protectRtp(rtp(500))
            XCTAssertEqual(try receiver.unprotectRtp(packet).count, 12 + 160, "\(profile)")
            assertThrows(.replayed) { () throws(ParseError) in try receiver.unprotectRtp(packet) }
        }
    }

    func testReorderedPacketsInsideTheWindowAreAcceptedAndOlderOnesRejected() throws {
        let (sender, receiver) = pair(.aesCm128HmacSha1_80)
        let packets = try (0..<300).map { (sequence: Int) throws(ParseError) in try sender.protectRtp(rtp(UInt16(sequence))) }
        _ = try receiver.unprotectRtp(packets[299])
        // 299 - 172 = 127: the oldest index inside a 128-packet window.
        XCTAssertNoThrow(try receiver.unprotectRtp(packets[172]))
        XCTAssertNoThrow(try receiver.unprotectRtp(packets[250]))
        assertThrows(.replayed) { () throws(ParseError) in try receiver.unprotectRtp(packets[171]) }
        assertThrows(.replayed) { () throws(ParseError) in try receiver.unprotectRtp(packets[0]) }
        assertThrows(.replayed) { () throws(ParseError) in try receiver.unprotectRtp(packets[250]) }
    }

    func testTamperedTagOrPayloadIsRejectedAndDoesNotMoveTheWindow() throws {
        for profile in SrtpProfile.allCases {
            let (sender, receiver) = pair(profile)
            let packet = try sender.protectRtp(rtp(9))
            var badTag = packet
            badTag[badTag.count - 1] ^= 0x01
            assertThrows(.integrity) { () throws(ParseError) in try receiver.unprotectRtp(badTag) }
            var badPayload = packet
            badPayload[20] ^= 0x80
            assertThrows(.integrity) { () throws(ParseError) in try receiver.unprotectRtp(badPayload) }
            var badHeader = packet
            badHeader[1] ^= 0x01  // payload type: authenticated, not encrypted
            assertThrows(.integrity) { () throws(ParseError) in try receiver.unprotectRtp(badHeader) }
            XCTAssertNoThrow(try receiver.unprotectRtp(packet), "\(profile): genuine packet after forgeries")
        }
    }

    func testTamperedSrtcpIsRejectedAndReplayedSrtcpToo() throws {
        for profile in SrtpProfile.allCases {
            let (sender, receiver) = pair(profile)
            let report = SrtpTestPackets.rtcp(ssrc: 42, blocks: 1, using: &generator)
            let packet = try sender.protectRtcp(report)
            XCTAssertEqual(packet.count, report.count + 4 + profile.rtcpTagLength)
            var forged = packet
            forged[10] ^= 0x10
            assertThrows(.integrity) { () throws(ParseError) in try receiver.unprotectRtcp(forged) }
            XCTAssertEqual(try receiver.unprotectRtcp(packet), report, "\(profile)")
            assertThrows(.replayed) { () throws(ParseError) in try receiver.unprotectRtcp(packet) }
        }
    }

    func testShortInputIsTruncatedNotACrash() {
        let (_, receiver) = pair(.aesCm128HmacSha1_80)
        // V=2, 12-byte header, no room for the 10-byte tag.
        let header: [UInt8] = [0x80, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xaa]
        assertThrows(.truncated) { () throws(ParseError) in try receiver.unprotectRtp(header) }
        assertThrows(.truncated) { () throws(ParseError) in try receiver.unprotectRtp([0x80, 0x60]) }
        assertThrows(.truncated) { () throws(ParseError) in try receiver.unprotectRtcp([0x80, 0xc9, 0, 1, 0, 0, 0, 1]) }
        // CC=15 promises 60 bytes of CSRCs that are not there.
        assertThrows(.truncated) { () throws(ParseError) in try receiver.protectRtp([0x8f, 0x60] + [UInt8](repeating: 0, count: 30)) }
    }

    func testRetransmissionProtectsToTheSameBytes() throws {
        let (sender, receiver) = pair(.aesCm128HmacSha1_80)
        let plain = rtp(1000)
        let first = try sender.protectRtp(plain)
        _ = try sender.protectRtp(rtp(1001))
        XCTAssertEqual(try sender.protectRtp(plain), first)
        XCTAssertEqual(try receiver.unprotectRtp(first), plain)
    }

    func testRolloverCounterFollowsTheSequenceWrapAndIsAuthenticated() throws {
        let (sender, receiver) = pair(.aesCm128HmacSha1_80)
        var sequence: UInt16 = 65_530
        for _ in 0..<20 {
            XCTAssertNoThrow(try receiver.unprotectRtp(sender.protectRtp(rtp(sequence))))
            sequence &+= 1
        }
        // A fresh receiver with ROC 0 cannot authenticate a packet sent with ROC 1.
        let (_, fresh) = pair(.aesCm128HmacSha1_80)
        let wrapped = try sender.protectRtp(rtp(sequence))
        assertThrows(.integrity) { () throws(ParseError) in try fresh.unprotectRtp(wrapped) }
        XCTAssertNoThrow(try receiver.unprotectRtp(wrapped))
    }

    func testSsrcsKeepSeparateState() throws {
        let (sender, receiver) = pair(.aeadAes128Gcm)
        let a = try sender.protectRtp(rtp(7, ssrc: 1))
        let b = try sender.protectRtp(rtp(7, ssrc: 2))
        XCTAssertNotEqual(Array(a[12...]), Array(b[12...]))
        XCTAssertNoThrow(try receiver.unprotectRtp(a))
        XCTAssertNoThrow(try receiver.unprotectRtp(b))
    }

    func testProfilesRoundTripThroughTheirRegistryNames() {
        for profile in SrtpProfile.allCases { XCTAssertEqual(SrtpProfile(name: profile.name), profile) }
        XCTAssertNil(SrtpProfile(name: "SRTP_NULL_SHA1_80"))
        XCTAssertEqual(SrtpProfile.aeadAes128Gcm.masterSaltLength, 12)
        XCTAssertEqual(SrtpProfile.aesCm128HmacSha1_32.rtpTagLength, 4)
        XCTAssertEqual(SrtpProfile.aesCm128HmacSha1_32.rtcpTagLength, 10)
    }
}
