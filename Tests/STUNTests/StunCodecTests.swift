import RTCBase
@testable import STUN
import XCTest

final class StunCodecTests: XCTestCase {
    let id = TransactionID(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C)
    let peer = SocketAddress("10.1.2.3:4000")!

    func testMessageTypesInterleaveClassBits() {
        // RFC 8489 figure 3 and 5: Binding request 0x0001, success 0x0101, error 0x0111.
        XCTAssertEqual(StunMethod.messageType(.binding, .request), 0x0001)
        XCTAssertEqual(StunMethod.messageType(.binding, .successResponse), 0x0101)
        XCTAssertEqual(StunMethod.messageType(.binding, .errorResponse), 0x0111)
        // RFC 8656: Allocate error 0x0113, Send indication 0x0016, Data indication 0x0017,
        // ChannelBind request 0x0009.
        XCTAssertEqual(StunMethod.messageType(.allocate, .errorResponse), 0x0113)
        XCTAssertEqual(StunMethod.messageType(.send, .indication), 0x0016)
        XCTAssertEqual(StunMethod.messageType(.data, .indication), 0x0017)
        XCTAssertEqual(StunMethod.messageType(.channelBind, .request), 0x0009)
        for raw in [0x000, 0x001, 0x0FF, 0x123, 0xFFF] as [UInt16] {
            for messageClass in [StunClass.request, .indication, .successResponse, .errorResponse] {
                let (method, back) = StunMethod.split(StunMethod.messageType(StunMethod(rawValue: raw), messageClass))
                XCTAssertEqual(method.rawValue, raw)
                XCTAssertEqual(back, messageClass)
            }
        }
    }

    func testEveryAttributeKindRoundTrips() throws {
        let attributes: [StunAttribute] = [
            .mappedAddress(peer), .xorMappedAddress(SocketAddress("[2001:db8::1]:9")!),
            .xorPeerAddress(peer), .xorRelayedAddress(SocketAddress("127.0.0.1:49160")!),
            .username("abcd:efgh"), .realm("test"), .nonce("n0nce"), .software("rtcswarm"),
            .errorCode(.roleConflict), .unknownAttributes([0x0031, 0x7000]),
            .priority(0x6E00_01FF), .useCandidate, .iceControlling(42), .iceControlled(.max),
            .lifetime(600), .requestedTransport(17), .channelNumber(0x4001), .data([1, 2, 3, 4, 5]),
            .other(type: 0x7777, value: [9, 8, 7]), .other(type: 0xC001, value: []),
        ]
        let message = StunMessage(method: .allocate, messageClass: .request, transactionID: id, attributes: attributes)
        let encoded = message.encode(integrityKey: [1, 2, 3], fingerprint: true)
        XCTAssertEqual(encoded.count % 4, 0)
        let decoded = try StunMessage.decode(encoded)
        XCTAssertEqual(Array(decoded.attributes.dropLast(2)), attributes)
        XCTAssertTrue(decoded.verifyIntegrity(key: [1, 2, 3]))
        XCTAssertEqual(decoded.unknownComprehensionRequired, [0x7777])
    }

    func testErrorCodeIsClassAndNumberThenReason() throws {
        let message = StunMessage(method: .binding, messageClass: .errorResponse, transactionID: id,
                                  attributes: [.errorCode(.roleConflict)])
        let encoded = message.encode()
        // 00 09 = ERROR-CODE, length 4 + 13; 00 00 reserved; 04 = class 4; 57 = number 87
        XCTAssertEqual(Array(encoded[20..<28]), [0x00, 0x09, 0x00, 0x11, 0x00, 0x00, 0x04, 0x57])
        XCTAssertEqual(Array(encoded[28..<41]), Array("Role Conflict".utf8))
        XCTAssertEqual(Array(encoded[41..<44]), [0, 0, 0])  // zero padding
        XCTAssertEqual(try StunMessage.decode(encoded).errorCode?.code, 487)
    }

    func testFingerprintIsCrc32XorStun() throws {
        // The CRC-32 check value (ISO 3309): "123456789" -> 0xCBF43926.
        XCTAssertEqual(Crc32.checksum(Array("123456789".utf8), 0..<9), 0xCBF4_3926)
        var tampered = StunMessage(method: .binding, messageClass: .request, transactionID: id,
                                   attributes: [.priority(7)]).encode(fingerprint: true)
        XCTAssertNoThrow(try StunMessage.decode(tampered))
        tampered[27] ^= 1
        XCTAssertThrowsError(try StunMessage.decode(tampered)) { error in
            XCTAssertEqual((error as? ParseError)?.code, .integrity)
        }
    }

    func testAttributesAfterIntegrityAreIgnored() throws {
        var bytes = StunMessage(method: .binding, messageClass: .request, transactionID: id,
                                attributes: [.username("a:b")]).encode(integrityKey: [7])
        // Append PRIORITY after MESSAGE-INTEGRITY and fix the header length.
        bytes += [0x00, 0x24, 0x00, 0x04, 0, 0, 0, 9]
        bytes[3] = UInt8(bytes.count - 20)
        let message = try StunMessage.decode(bytes)
        XCTAssertNil(message.priority)
        XCTAssertTrue(message.verifyIntegrity(key: [7]))
    }

    func testMalformedHeadersAreRejected() {
        let good = StunMessage(method: .binding, messageClass: .request, transactionID: id).encode()
        var badCookie = good
        badCookie[4] = 0
        var badLength = good + [0, 0, 0, 0]
        var leadingBits = good
        leadingBits[0] = 0x40
        var truncatedAttribute = good + [0x00, 0x24, 0x00, 0x08, 0, 0, 0, 1]
        truncatedAttribute[3] = 8
        badLength[3] = 0
        for bytes in [badCookie, badLength, leadingBits, truncatedAttribute, Array(good.prefix(19))] {
            XCTAssertThrowsError(try StunMessage.decode(bytes))
        }
        XCTAssertTrue(StunMessage.looksLikeStun(good))
        XCTAssertFalse(StunMessage.looksLikeStun(badCookie))
    }

    func testWrongSizedKnownAttributeIsRejected() {
        var bytes = StunMessage(method: .binding, messageClass: .request, transactionID: id,
                                attributes: [.other(type: StunAttribute.TypeCode.priority, value: [1, 2])]).encode()
        XCTAssertThrowsError(try StunMessage.decode(bytes))
        bytes = StunMessage(method: .binding, messageClass: .request, transactionID: id,
                            attributes: [.other(type: StunAttribute.TypeCode.xorMappedAddress, value: [0, 3, 0, 0, 1, 2, 3, 4])]).encode()
        XCTAssertThrowsError(try StunMessage.decode(bytes))
    }

    func testUnverifiableMessagesFailIntegrity() throws {
        let plain = StunMessage(method: .binding, messageClass: .request, transactionID: id)
        XCTAssertFalse(plain.verifyIntegrity(key: [1]))
        XCTAssertFalse(try StunMessage.decode(plain.encode()).verifyIntegrity(key: [1]))
    }

    func testChannelDataFramesAndPads() throws {
        let frame = ChannelData(channel: 0x4001, payload: [1, 2, 3, 4, 5])
        let encoded = frame.encode()
        // 40 01 = channel; 00 05 = length; five bytes of data; three of padding
        XCTAssertEqual(encoded, [0x40, 0x01, 0x00, 0x05, 1, 2, 3, 4, 5, 0, 0, 0])
        XCTAssertTrue(ChannelData.looksLikeChannelData(encoded))
        XCTAssertEqual(try ChannelData.decode(encoded), frame)
        XCTAssertEqual(try ChannelData.decode(Array(encoded.prefix(9))), frame)  // unpadded over UDP
        XCTAssertThrowsError(try ChannelData.decode([0x50, 0x00, 0x00, 0x00]))  // channel 0x5000
        XCTAssertThrowsError(try ChannelData.decode([0x40, 0x00, 0x00, 0x08, 1]))  // short
    }

    func testLongTermKeyIsMd5OfUserRealmPassword() {
        // MD5("test:test:test"): the key coturn derives for --user=test:test --realm=test.
        let key = StunKey.longTerm(username: "test", realm: "test", password: "test")
        XCTAssertEqual(key.count, 16)
        XCTAssertEqual(key.map { String(format: "%02x", $0) }.joined(), "aeeebbfd75d1499d24388f5b9b10e0ef")
    }
}
