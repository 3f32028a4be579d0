import RTCBase
@testable import SCTP
import XCTest

final class SctpPacketTests: XCTestCase {
    /// RFC 3720 B.4's CRC32c vectors (the same CRC RFC 9260 appendix B specifies).
    func testCrc32cMatchesPublishedVectors() {
        XCTAssertEqual(Crc32c.checksum([UInt8](repeating: 0, count: 32)), 0x8A91_36AA)
        XCTAssertEqual(Crc32c.checksum([UInt8](repeating: 0xFF, count: 32)), 0x62A8_AB43)
        XCTAssertEqual(Crc32c.checksum(Array(0..<32)), 0x46DD_794E)
        XCTAssertEqual(Crc32c.checksum(Array("123456789".utf8)), 0xE306_9283)
    }

    func testEveryChunkKindRoundTrips() throws {
        let chunks: [SctpChunk] = [
            .initiate(InitChunk(initiateTag: 0xDEAD_BEEF, advertisedWindow: 1 << 20, outboundStreams: 1024,
                                inboundStreams: 1024, initialTSN: 77)),
            .data(DataChunk(tsn: 5, stream: 2, ssn: 9, ppid: 53, unordered: true, beginning: true, ending: false,
                            payload: [1, 2, 3, 4, 5][...])),
            .sack(SackChunk(cumulativeTSN: 100, advertisedWindow: 5000, gaps: [(2, 3), (5, 9)], duplicates: [99])),
            .forwardTSN(ForwardTSNChunk(newCumulativeTSN: 300, streams: [(1, 4), (3, 0)])),
            .heartbeat(info: [0, 1, 0, 8, 9, 9, 9, 9]), .cookieEcho(cookie: [7, 7, 7]), .cookieAck,
            .shutdown(cumulativeTSN: 12), .shutdownAck, .shutdownComplete(reflected: true), .abort(reflected: false),
        ]
        let packet = SctpPacket(sourcePort: 5000, destinationPort: 5000, verificationTag: 42, chunks: chunks)
        let bytes = packet.serialize()
        XCTAssertEqual(bytes.count % 4, 0)
        XCTAssertEqual(try SctpPacket.parse(bytes), packet)
        let ack = SctpChunk.initAck(InitChunk(initiateTag: 1, advertisedWindow: 2, outboundStreams: 3, inboundStreams: 4,
                                              initialTSN: 5, cookie: [9, 8, 7, 6, 5]))
        let single = SctpPacket(sourcePort: 1, destinationPort: 2, verificationTag: 3, chunks: [ack])
        XCTAssertEqual(try SctpPacket.parse(single.serialize()), single)
    }

    func testChecksumIsLittleEndianAndAnyFlippedBitIsCaught() throws {
        let packet = SctpPacket(sourcePort: 5000, destinationPort: 5000, verificationTag: 1, chunks: [.cookieAck])
        var bytes = packet.serialize()
        let crc = Crc32c.packetChecksum(bytes)
        XCTAssertEqual(Array(bytes[8..<12]), [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)])
        bytes[13] ^= 0x10
        XCTAssertThrowsError(try SctpPacket.parse(bytes)) { XCTAssertEqual(($0 as? ParseError)?.code, .integrity) }
    }

    /// An unknown chunk type with the high bit clear ends the packet; with it set, the
    /// chunk is skipped and the rest is read (RFC 9260 3.2).
    func testUnknownChunkTypesFollowTheHighBitRule() throws {
        let skip = SctpPacket(sourcePort: 1, destinationPort: 1, verificationTag: 1, chunks: [.unknown(type: 0x85), .cookieAck])
        XCTAssertEqual(try SctpPacket.parse(skip.serialize()).chunks, [.unknown(type: 0x85), .cookieAck])
        let stop = SctpPacket(sourcePort: 1, destinationPort: 1, verificationTag: 1, chunks: [.unknown(type: 0x25), .cookieAck])
        XCTAssertEqual(try SctpPacket.parse(stop.serialize()).chunks, [.unknown(type: 0x25)])
    }

    func testStateCookieRefusesForgeryAndStaleness() {
        let peer = InitChunk(initiateTag: 9, advertisedWindow: 10, outboundStreams: 11, inboundStreams: 12, initialTSN: 13)
        let cookie = StateCookie(peer: peer, localTag: 14, localInitialTSN: 15, created: Instant(nanoseconds: 1_000))
        let secret = [UInt8](repeating: 3, count: 32)
        var sealed = cookie.seal(secret: secret)
        XCTAssertEqual(StateCookie.open(sealed, secret: secret, now: Instant(nanoseconds: 2_000))?.peer.initialTSN, 13)
        XCTAssertNil(StateCookie.open(sealed, secret: secret, now: Instant(nanoseconds: 1_000) + .seconds(61)), "stale")
        XCTAssertNil(StateCookie.open(sealed, secret: [UInt8](repeating: 4, count: 32), now: Instant(nanoseconds: 2_000)))
        sealed[3] ^= 1
        XCTAssertNil(StateCookie.open(sealed, secret: secret, now: Instant(nanoseconds: 2_000)), "tampered")
    }

    func testDcepOpenCarriesEveryChannelType() throws {
        let cases: [(DataChannelOptions, UInt8, UInt32)] = [
            (DataChannelOptions(label: "chat"), 0x00, 0),
            (DataChannelOptions(label: "u", ordered: false), 0x80, 0),
            (DataChannelOptions(label: "r", reliability: .maxRetransmits(3)), 0x01, 3),
            (DataChannelOptions(label: "ru", ordered: false, reliability: .maxRetransmits(0)), 0x81, 0),
            (DataChannelOptions(label: "t", protocol: "json", reliability: .lifetime(.milliseconds(1500))), 0x02, 1500),
            (DataChannelOptions(label: "tu", ordered: false, reliability: .lifetime(.milliseconds(20))), 0x82, 20),
        ]
        for (options, type, parameter) in cases {
            let bytes = DataChannelControl.open(options, priority: 256).serialize()
            XCTAssertEqual(bytes[0], 0x03)
            XCTAssertEqual(bytes[1], type, options.label)
            XCTAssertEqual(Array(bytes[4..<8]), [UInt8(parameter >> 24), UInt8(parameter >> 16 & 0xFF), UInt8(parameter >> 8 & 0xFF), UInt8(parameter & 0xFF)])
            XCTAssertEqual(bytes.count, 12 + options.label.utf8.count + options.protocol.utf8.count)
            XCTAssertEqual(try DataChannelControl.parse(bytes[...]), .open(options, priority: 256))
        }
        XCTAssertEqual(try DataChannelControl.parse([0x02][...]), .ack)
        XCTAssertThrowsError(try DataChannelControl.parse([0x03, 0x05, 0, 0][...]))
        XCTAssertThrowsError(try DataChannelControl.parse([0x03, 0x00, 1, 0, 0, 0, 0, 0, 0, 9, 0, 0, 65][...]), "label longer than the message")
    }
}
