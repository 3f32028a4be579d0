import RTCBase
import RTP
import WebRTCTestKit
import XCTest

final class RtpPacketTests: XCTestCase {
    func testParsesHeaderWithCsrcsOneByteExtensionAndPadding() throws {
        let bytes: [UInt8] = [
            0xB2, 0xE0,  // V=2 P=1 X=1 CC=2 | M=1 PT=96
            0x12, 0x34,  // sequence number 0x1234
            0x00, 0x01, 0x00, 0x02,  // timestamp 65538
            0xDE, 0xAD, 0xBE, 0xEF,  // SSRC
            0x00, 0x00, 0x00, 0x01,  // CSRC 1
            0x00, 0x00, 0x00, 0x02,  // CSRC 2
            0xBE, 0xDE, 0x00, 0x02,  // one-byte extension profile, 2 words
            0x10, 0xAA,  // ID=1 L=0 (1 byte): AA
            0x00,  // padding byte
            0x21, 0xBB, 0xCC, 0x00, 0x00,  // ID=2 L=1 (2 bytes): BB CC, then padding
            0x01, 0x02, 0x03,  // payload
            0x00, 0x00, 0x03,  // 3 bytes of RTP padding
        ]
        let packet = try RtpPacket(parsing: bytes)
        XCTAssertTrue(packet.marker)
        XCTAssertEqual(packet.payloadType, 96)
        XCTAssertEqual(packet.sequenceNumber, 0x1234)
        XCTAssertEqual(packet.timestamp, 65538)
        XCTAssertEqual(packet.ssrc, 0xDEAD_BEEF)
        XCTAssertEqual(packet.csrcCount, 2)
        XCTAssertEqual(packet.csrc(at: 1), 2)
        XCTAssertNil(packet.csrc(at: 2))
        XCTAssertEqual(packet.extensionProfile, 0xBEDE)
        XCTAssertEqual(packet.extensions.map(\.id), [1, 2])
        XCTAssertEqual(packet.extensionElement(id: 1).map { Array(bytes[$0]) }, [0xAA])
        XCTAssertEqual(packet.extensionElement(id: 2).map { Array(bytes[$0]) }, [0xBB, 0xCC])
        XCTAssertEqual(Array(packet.payload), [1, 2, 3])
        XCTAssertEqual(packet.paddingLength, 3)
    }

    func testTwoByteExtensionAllowsZeroLengthAndLargeIds() throws {
        let bytes: [UInt8] = [
            0x90, 0x60, 0x00, 0x01,  // V=2 X=1 CC=0 | M=0 PT=96 | seq 1
            0, 0, 0, 0, 0, 0, 0, 1,  // timestamp 0, SSRC 1
            0x10, 0x00, 0x00, 0x02,  // two-byte profile 0x1000, 2 words
            0x20, 0x00,  // ID=32 length 0
            0x05, 0x03, 0x01, 0x02, 0x03,  // ID=5 length 3
            0x00,  // padding
            0x99,  // payload
        ]
        let packet = try RtpPacket(parsing: bytes)
        let elements = Array(packet.extensions)
        XCTAssertEqual(elements.map(\.id), [32, 5])
        XCTAssertEqual(elements.map(\.range.count), [0, 3])
        XCTAssertEqual(Array(packet.payload), [0x99])
    }

    func testOneByteExtensionStopsAtId15AndAtAnOverrunningElement() throws {
        var bytes: [UInt8] = [
            0x90, 0x60, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 1,  // V=2 X=1 | PT=96 seq 1 | ts 0 | SSRC 1
            0xBE, 0xDE, 0x00, 0x01,  // one-byte profile, 1 word
            0x10, 0x07, 0xF0, 0x33,  // ID=1 L=0: 07 | ID=15: stop parsing (rest ignored)
        ]
        XCTAssertEqual(try RtpPacket(parsing: bytes).extensions.map(\.id), [1])
        bytes[18] = 0x23  // ID=2 L=3 (4 bytes) but only 1 byte left in the block
        XCTAssertEqual(try RtpPacket(parsing: bytes).extensions.map(\.id), [1])
        bytes[13] = 0xDF  // unknown profile 0xBEDF: no elements
        XCTAssertTrue(Array(try RtpPacket(parsing: bytes).extensions).isEmpty)
    }

    func testWriteThenParseRestoresEveryField() throws {
        var writer = ByteWriter(capacity: 1500)
        for twoByte in [false, true] {
            let header = RtpHeader(
                marker: true, payloadType: 111, sequenceNumber: 65535, timestamp: 0xFFFF_FFFF, ssrc: 42,
                csrcs: [7, 8, 9],
                extensions: [
                    .init(id: 3, value: [1, 2]),
                    .init(id: twoByte ? 20 : 4, value: Array(repeating: 5, count: twoByte ? 17 : 16)),
                ])
            XCTAssertEqual(header.fitsOneByteExtensions, !twoByte)
            writer.reset()
            header.write(payload: [9, 9, 9, 9, 9], padding: 4, to: &writer)
            let packet = try RtpPacket(parsing: writer.bytes)
            XCTAssertEqual(RtpHeader(packet), header)
            XCTAssertEqual(Array(packet.payload), [9, 9, 9, 9, 9])
            XCTAssertEqual(packet.paddingLength, 4)
        }
    }

    func testRejectsBadVersionTruncationAndOversizedPadding() {
        XCTAssertThrowsError(try RtpPacket(parsing: [0x40, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]))  // V=1
        XCTAssertThrowsError(try RtpPacket(parsing: [0x80, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0]))  // 11 bytes
        XCTAssertThrowsError(try RtpPacket(parsing: [0x81, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]))  // CC=1, no CSRC
        // P=1 with a padding count (5) larger than the 2 bytes after the header.
        XCTAssertThrowsError(try RtpPacket(parsing: [0xA0, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 5]))
    }

    func testFuzzedInputsNeverTrap() {
        var writer = ByteWriter()
        RtpHeader(
            payloadType: 96, sequenceNumber: 1, timestamp: 2, ssrc: 3, csrcs: [4],
            extensions: [.init(id: 1, value: [1]), .init(id: 2, value: [1, 2, 3])]
        ).write(payload: [1, 2, 3, 4], padding: 2, to: &writer)
        var fuzzer = Fuzzer(seeds: [writer.bytes], seed: 1, maxLength: 96)
        var parsed = 0
        fuzzer.run(iterations: 100_000) { input in
            guard let packet = try? RtpPacket(parsing: input) else { return }
            parsed += 1
            for element in packet.extensions { XCTAssertLessThanOrEqual(element.range.upperBound, input.count) }
            XCTAssertLessThanOrEqual(packet.payloadRange.upperBound, input.count)
        }
        XCTAssertGreaterThan(parsed, 1_000)
    }
}
