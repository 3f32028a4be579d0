import RTCBase
import RTP
import XCTest

final class RtcpReportTests: XCTestCase {
    private let block = ReportBlock(
        ssrc: 0x1111_2222, fractionLost: 64, cumulativeLost: -3, extendedHighestSequence: 0x0001_0005,
        jitter: 90, lastSenderReport: 0xAABB_CCDD, delaySinceLastSenderReport: 65536)

    func testSenderReportBytesAndRoundTrip() throws {
        let report = SenderReport(
            ssrc: 1, ntpTimestamp: 0x0102_0304_0506_0708, rtpTimestamp: 9, packetCount: 10, octetCount: 11,
            reports: [block])
        var writer = ByteWriter()
        report.write(to: &writer)
        XCTAssertEqual(Array(writer.bytes[0..<4]), [0x81, 0xC8, 0x00, 0x0C])  // V=2 RC=1 | PT=200 | length 12
        XCTAssertEqual(Array(writer.bytes[32..<36]), [0x40, 0xFF, 0xFF, 0xFD])  // fraction 64/256, lost -3
        XCTAssertEqual(report.compactNtp, 0x0304_0506)
        XCTAssertEqual(try RtcpCompoundReader.parse(writer.bytes, requiresReportFirst: true), [.senderReport(report)])
    }

    func testCumulativeLostIsClampedTo24Bits() throws {
        var clamped = block
        clamped.cumulativeLost = 10_000_000
        var writer = ByteWriter()
        ReceiverReport(ssrc: 5, reports: [clamped]).write(to: &writer)
        guard case .receiverReport(let parsed) = try RtcpCompoundReader.parse(writer.bytes).first else {
            return XCTFail("not an RR")
        }
        XCTAssertEqual(parsed.reports.first?.cumulativeLost, 0x7f_ffff)
    }

    func testCompoundOfReportSdesAndByeIteratesInOrder() throws {
        let packets: [RtcpPacket] = [
            .receiverReport(ReceiverReport(ssrc: 5, reports: [block, block])),
            .sourceDescription(
                SourceDescription(chunks: [.init(ssrc: 5, cname: "rtcswarm-peer-1"), .init(ssrc: 6, cname: "x")])),
            .goodbye(Goodbye(ssrcs: [5, 6], reason: "done")),
        ]
        var writer = ByteWriter()
        for packet in packets { packet.write(to: &writer) }
        XCTAssertEqual(writer.count % 4, 0)
        XCTAssertEqual(try RtcpCompoundReader.parse(writer.bytes, requiresReportFirst: true), packets)
    }

    func testSdesCnameBytes() {
        var writer = ByteWriter()
        SourceDescription(chunks: [.init(ssrc: 1, cname: "ab")]).write(to: &writer)
        XCTAssertEqual(
            writer.bytes,
            [
                0x81, 0xCA, 0x00, 0x03,  // V=2 SC=1 | PT=202 | length 3
                0x00, 0x00, 0x00, 0x01,  // SSRC 1
                0x01, 0x02, 0x61, 0x62,  // CNAME, length 2, "ab"
                0x00, 0x00, 0x00, 0x00,  // end of items, padding to 32 bits
            ])
    }

    func testReducedSizeFeedbackAloneIsAcceptedUnlessCompoundIsRequired() throws {
        let pli: [UInt8] = [0x81, 0xCE, 0x00, 0x02, 0, 0, 0, 1, 0, 0, 0, 2]  // PLI, RFC 5506 reduced-size
        XCTAssertEqual(try RtcpCompoundReader.parse(pli), [.pictureLoss(.init(senderSsrc: 1, mediaSsrc: 2))])
        XCTAssertThrowsError(try RtcpCompoundReader.parse(pli, requiresReportFirst: true))
    }

    func testPaddingOnlyOnLastPacketAndUnknownTypesAreKept() throws {
        let packets: [UInt8] = [
            0x80, 0xC9, 0x00, 0x01, 0, 0, 0, 7,  // RR, RC=0, SSRC 7
            0xA0, 0xCC, 0x00, 0x02, 1, 2, 3, 4, 0, 0, 0, 4,  // PT=204 APP with P=1, 4 padding bytes
        ]
        let parsed = try RtcpCompoundReader.parse(packets)
        XCTAssertEqual(parsed.count, 2)
        XCTAssertEqual(parsed.first, .receiverReport(ReceiverReport(ssrc: 7)))
        guard case .other(let header) = parsed.last else { return XCTFail("APP not kept as other") }
        XCTAssertEqual(header.packetType, 204)
        // The same padded packet first, with another after it, is invalid.
        XCTAssertThrowsError(try RtcpCompoundReader.parse(Array(packets[8...]) + Array(packets[0..<8])))
        // A length past the end of the datagram.
        XCTAssertThrowsError(try RtcpCompoundReader.parse([0x80, 0xC9, 0x00, 0x02, 0, 0, 0, 7]))
    }
}
