@testable import SRTP
import XCTest

/// HmacSha1 against RFC 2202 section 3's HMAC-SHA1 test cases, which cover a key shorter
/// than, equal to and longer than SHA-1's 64-byte block (hashed first, RFC 2104 2), and
/// data longer than one block.
final class HmacSha1Tests: XCTestCase {
    private func digest(key: [UInt8], _ message: [UInt8], suffix: UInt32? = nil) -> String {
        var output = [UInt8](repeating: 0, count: HmacSha1.outputLength)
        message.withUnsafeBytes { HmacSha1(key: key).authenticate($0, suffix: suffix, into: &output) }
        return output.map { String(format: "%02x", $0) }.joined()
    }

    func testRFC2202TestCases() {
        XCTAssertEqual(digest(key: [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8)),
                       "b617318655057264e28bc0b6fb378c8ef146be00")
        XCTAssertEqual(digest(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)),
                       "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        XCTAssertEqual(digest(key: [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50)),
                       "125d7342b9ac11cd91a39af48aa17b4f63f175d3")
        XCTAssertEqual(digest(key: [UInt8](repeating: 0xaa, count: 80),
                              Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)),
                       "aa4ae5e15272d00e95705637ce8a3b55ed402112")
        XCTAssertEqual(digest(key: [UInt8](repeating: 0xaa, count: 80),
                              Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8)),
                       "e8e99d0f45237d786d6bbaa7965c7808bbff1a91")
    }

    /// The rollover counter is authenticated after the packet (RFC 3711 4.2): the same
    /// digest as the bytes written out, here RFC 2202 case 2 with its last four bytes
    /// ("ing?") given as the suffix.
    func testTheSuffixIsHashedAfterTheMessageBigEndian() {
        XCTAssertEqual(digest(key: Array("Jefe".utf8), Array("what do ya want for noth".utf8), suffix: 0x696e_673f),
                       "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }

    /// One key, many messages: each starts again from the key's states.
    func testOneKeyAuthenticatesMessagesIndependently() {
        let hmac = HmacSha1(key: Array("Jefe".utf8))
        var first = [UInt8](repeating: 0, count: 20)
        var second = [UInt8](repeating: 0, count: 20)
        Array("something else".utf8).withUnsafeBytes { hmac.authenticate($0, suffix: 7, into: &first) }
        Array("what do ya want for nothing?".utf8).withUnsafeBytes { hmac.authenticate($0, suffix: nil, into: &second) }
        XCTAssertEqual(second.map { String(format: "%02x", $0) }.joined(), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        XCTAssertEqual(digest(key: [UInt8](repeating: 0x6b, count: 1), []), "3a84a218ee6665209bb70e84525dd837645a1965")
    }
}
