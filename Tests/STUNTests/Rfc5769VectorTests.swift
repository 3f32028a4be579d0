import RTCBase
@testable import STUN
import XCTest

/// RFC 5769 section 2: every sample message decodes, its MESSAGE-INTEGRITY and
/// FINGERPRINT check out, and its attributes read as the RFC states.
final class Rfc5769VectorTests: XCTestCase {
    static func hex(_ text: String) -> [UInt8] {
        text.split(whereSeparator: \.isWhitespace).compactMap { UInt8($0, radix: 16) }
    }

    static let sampleID = TransactionID(bytes: hex("b7 e7 a7 01 bc 34 d6 86 fa 87 df ae"))
    static let password = "VOkJxbRl1RmTxUk/WvJxBt"

    /// 2.1 Sample Request (short-term credentials, padding with spaces).
    static let request = hex("""
        00 01 00 58  21 12 a4 42  b7 e7 a7 01  bc 34 d6 86  fa 87 df ae
        80 22 00 10  53 54 55 4e  20 74 65 73  74 20 63 6c  69 65 6e 74
        00 24 00 04  6e 00 01 ff
        80 29 00 08  93 2f f9 b1  51 26 3b 36
        00 06 00 09  65 76 74 6a  3a 68 36 76  59 20 20 20
        00 08 00 14  9a ea a7 0c  bf d8 cb 56  78 1e f2 b5  b2 d3 f2 49  c1 b5 71 a2
        80 28 00 04  e5 7a 3b cf
        """)
    // 80 22 = SOFTWARE "STUN test client"; 00 24 = PRIORITY; 80 29 = ICE-CONTROLLED;
    // 00 06 = USERNAME "evtj:h6vY" + 3 pad; 00 08 = MESSAGE-INTEGRITY; 80 28 = FINGERPRINT

    /// 2.2 Sample IPv4 Response: XOR-MAPPED-ADDRESS 192.0.2.1:32853.
    static let ipv4Response = hex("""
        01 01 00 3c  21 12 a4 42  b7 e7 a7 01  bc 34 d6 86  fa 87 df ae
        80 22 00 0b  74 65 73 74  20 76 65 63  74 6f 72 20
        00 20 00 08  00 01 a1 47  e1 12 a6 43
        00 08 00 14  2b 91 f5 99  fd 9e 90 c3  8c 74 89 f9  2a f9 ba 53  f0 6b e7 d7
        80 28 00 04  c0 7d 4c 96
        """)

    /// 2.3 Sample IPv6 Response: XOR-MAPPED-ADDRESS [2001:db8:1234:5678:11:2233:4455:6677]:32853.
    static let ipv6Response = hex("""
        01 01 00 48  21 12 a4 42  b7 e7 a7 01  bc 34 d6 86  fa 87 df ae
        80 22 00 0b  74 65 73 74  20 76 65 63  74 6f 72 20
        00 20 00 14  00 02 a1 47  01 13 a9 fa  a5 d3 f1 79  bc 25 f4 b5  be d2 b9 d9
        00 08 00 14  a3 82 95 4e  4b e6 7b f1  17 84 c9 7c  82 92 c2 75  bf e3 ed 41
        80 28 00 04  c8 fb 0b 4c
        """)

    /// 2.4 Sample Request with Long-Term Authentication (zero padding, no FINGERPRINT).
    static let longTermRequest = hex("""
        00 01 00 60  21 12 a4 42  78 ad 34 33  c6 ad 72 c0  29 da 41 2e
        00 06 00 12  e3 83 9e e3  83 88 e3 83  aa e3 83 83  e3 82 af e3  82 b9 00 00
        00 15 00 1c  66 2f 2f 34  39 39 6b 39  35 34 64 36  4f 4c 33 34  6f 4c 39 46  53 54 76 79  36 34 73 41
        00 14 00 0b  65 78 61 6d  70 6c 65 2e  6f 72 67 00
        00 08 00 14  f6 70 24 65  6d d6 4a 3e  02 b8 e0 71  2e 85 c9 a2  8c a8 96 66
        """)
    // 00 06 = USERNAME (U+30DE U+30C8 U+30EA U+30C3 U+30AF U+30B9); 00 15 = NONCE;
    // 00 14 = REALM "example.org"; 00 08 = MESSAGE-INTEGRITY

    func testSampleRequestDecodesWithItsIceAttributes() throws {
        let message = try StunMessage.decode(Self.request)
        XCTAssertEqual(message.method, .binding)
        XCTAssertEqual(message.messageClass, .request)
        XCTAssertEqual(message.transactionID, Self.sampleID)
        XCTAssertEqual(message.first(StunAttribute.TypeCode.software), .software("STUN test client"))
        XCTAssertEqual(message.priority, 0x6E00_01FF)
        XCTAssertEqual(message.iceControlled, 0x932F_F9B1_5126_3B36)
        XCTAssertEqual(message.username, "evtj:h6vY")
        XCTAssertEqual(message.attributes.last, .fingerprint(0xE57A_3BCF))
    }

    func testSampleRequestIntegrityChecksWithThePasswordOnly() throws {
        let message = try StunMessage.decode(Self.request)
        XCTAssertTrue(message.verifyIntegrity(key: StunKey.shortTerm(password: Self.password)))
        XCTAssertFalse(message.verifyIntegrity(key: StunKey.shortTerm(password: "VOkJxbRl1RmTxUk/WvJxBu")))
    }

    func testSampleIPv4ResponseGivesTheMappedAddress() throws {
        let message = try StunMessage.decode(Self.ipv4Response)
        XCTAssertEqual(message.messageClass, .successResponse)
        XCTAssertEqual(message.mappedAddress, SocketAddress("192.0.2.1:32853"))
        XCTAssertEqual(message.first(StunAttribute.TypeCode.software), .software("test vector"))
        XCTAssertTrue(message.verifyIntegrity(key: StunKey.shortTerm(password: Self.password)))
    }

    func testSampleIPv6ResponseGivesTheMappedAddress() throws {
        let message = try StunMessage.decode(Self.ipv6Response)
        XCTAssertEqual(message.mappedAddress, SocketAddress("[2001:db8:1234:5678:11:2233:4455:6677]:32853"))
        XCTAssertTrue(message.verifyIntegrity(key: StunKey.shortTerm(password: Self.password)))
    }

    func testLongTermRequestVerifiesWithTheMd5Key() throws {
        let message = try StunMessage.decode(Self.longTermRequest)
        let username = "\u{30DE}\u{30C8}\u{30EA}\u{30C3}\u{30AF}\u{30B9}"
        XCTAssertEqual(message.username, username)
        XCTAssertEqual(message.realm, "example.org")
        XCTAssertEqual(message.nonce, "f//499k954d6OL34oL9FSTvy64sA")
        // The password "The<U+00AD>M<U+00AA>tr<U+2168>" after SASLprep/OpaqueString.
        let key = StunKey.longTerm(username: username, realm: "example.org", password: "TheMatrIX")
        XCTAssertTrue(message.verifyIntegrity(key: key))
        XCTAssertFalse(message.verifyIntegrity(key: StunKey.longTerm(username: username, realm: "example.org", password: "TheMatrix")))
    }

    func testLongTermRequestReencodesByteForByte() throws {
        // Unlike 2.1-2.3, the 2.4 sample pads with zeros as RFC 8489 asks, so the encoder
        // must reproduce it exactly, MESSAGE-INTEGRITY included.
        let message = try StunMessage.decode(Self.longTermRequest)
        let key = StunKey.longTerm(username: message.username ?? "", realm: "example.org", password: "TheMatrIX")
        XCTAssertEqual(message.encode(integrityKey: key), Self.longTermRequest)
    }

    func testIPv4ResponseRebuiltWithZeroPaddingVerifiesItself() throws {
        let message = try StunMessage.decode(Self.ipv4Response)
        let key = StunKey.shortTerm(password: Self.password)
        let encoded = message.encode(integrityKey: key, fingerprint: true)
        // Same length and the same XOR-MAPPED-ADDRESS bytes as the RFC.
        XCTAssertEqual(encoded.count, Self.ipv4Response.count)
        XCTAssertEqual(Array(encoded[36..<48]), Array(Self.ipv4Response[36..<48]))
        let again = try StunMessage.decode(encoded)
        XCTAssertTrue(again.verifyIntegrity(key: key))
        XCTAssertEqual(Array(again.attributes.prefix(2)), Array(message.attributes.prefix(2)))
    }
}
