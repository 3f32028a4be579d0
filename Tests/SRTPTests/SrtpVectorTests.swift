@testable import SRTP
import XCTest

/// RFC 3711 Appendix B test vectors.
final class SrtpVectorTests: XCTestCase {
    private let hex = SrtpTestPackets.hex

    /// B.2: the AES-CM key stream of one 65282-block segment, SSRC 0, index 0.
    func testAesCounterModeKeyStreamMatchesRfc3711AppendixB2() {
        let cipher = AesCounterMode(key: hex("2B7E151628AED2A6ABF7158809CF4F3C"))
        let stream = cipher.keyStream(iv: hex("F0F1F2F3F4F5F6F7F8F9FAFBFCFD0000"), count: 65282 * 16)
        XCTAssertEqual(
            Array(stream[0..<48]),
            hex("E03EAD0935C95E80E166B16DD92B4EB4 D23513162B02D0F72A43A2FE4A5F97AB 41E95B3BB0A2E8DD477901E4FCA894C0"))
        XCTAssertEqual(
            Array(stream[(stream.count - 48)...]),
            hex("EC8CDF7398607CB0F2D21675EA9EA1E4 362B7C3C6773516318A077D7FC5073AE 6A2CC3787889374FBEB4C81B17BA6C44"))
    }

    /// B.3: session encryption key, salt and authentication key from a master key.
    func testKeyDerivationMatchesRfc3711AppendixB3() {
        let keys = SrtpSessionKeys(
            profile: .aesCm128HmacSha1_80, masterKey: hex("E1F97A0D3E018BE0D64FA32C06DE4139"),
            masterSalt: hex("0EC675AD498AFEEBB6960B3AABE6"), layer: .rtp)
        XCTAssertEqual(keys.encryptionKey, hex("C61E7A93744F39EE10734AFE3FF7A087"))
        XCTAssertEqual(keys.salt, hex("30CBBC08863D8C85D49DB34A9AE1"))
        XCTAssertEqual(keys.authenticationKey, hex("CEBE321F6FF7716B6FD4AB49AF256A156D38BAA4"))
    }

    func testRtcpKeysUseTheirOwnLabels() {
        let master = hex("E1F97A0D3E018BE0D64FA32C06DE4139")
        let salt = hex("0EC675AD498AFEEBB6960B3AABE6")
        let rtp = SrtpSessionKeys(profile: .aesCm128HmacSha1_80, masterKey: master, masterSalt: salt, layer: .rtp)
        let rtcp = SrtpSessionKeys(profile: .aesCm128HmacSha1_80, masterKey: master, masterSalt: salt, layer: .rtcp)
        XCTAssertNotEqual(rtp.encryptionKey, rtcp.encryptionKey)
        XCTAssertNotEqual(rtp.authenticationKey, rtcp.authenticationKey)
        XCTAssertEqual(rtcp.salt.count, 14)
    }

    func testGcmProfileDerivesTwelveByteSaltAndNoAuthenticationKey() {
        let keys = SrtpSessionKeys(
            profile: .aeadAes128Gcm, masterKey: hex("E1F97A0D3E018BE0D64FA32C06DE4139"),
            masterSalt: hex("0EC675AD498AFEEBB6960B3A"), layer: .rtp)
        XCTAssertEqual(keys.salt.count, 12)
        XCTAssertEqual(keys.authenticationKey, [])
        XCTAssertEqual(keys.encryptionKey.count, 16)
    }

    /// RFC 3711 3.4: with E = 0 the SRTCP payload travels in the clear but is still
    /// authenticated, trailer included.
    func testUnencryptedSrtcpIsAuthenticatedAndPassedThrough() throws {
        let key = [UInt8](repeating: 0x11, count: 16)
        let salt = [UInt8](repeating: 0x22, count: 14)
        let keys = SrtpSessionKeys(profile: .aesCm128HmacSha1_80, masterKey: key, masterSalt: salt, layer: .rtcp)
        // V=2 P=0 RC=0, PT=201 (RR), length=1, SSRC=0x01020304
        let rtcp: [UInt8] = [0x80, 201, 0, 1, 1, 2, 3, 4]
        let trailer: [UInt8] = [0, 0, 0, 5]  // E=0, SRTCP index 5
        var mac = [UInt8](repeating: 0, count: 20)
        (rtcp + trailer).withUnsafeBytes { HmacSha1(key: keys.authenticationKey).authenticate($0, suffix: nil, into: &mac) }
        let srtcp = rtcp + trailer + mac.prefix(10)
        let context = SrtpContext(profile: .aesCm128HmacSha1_80, masterKey: key, masterSalt: salt)
        XCTAssertEqual(try context.unprotectRtcp(srtcp), rtcp)
        var forged = srtcp
        forged[7] ^= 1
        XCTAssertThrowsError(try context.unprotectRtcp(forged))
    }
}
