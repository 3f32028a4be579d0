import RTCBase
import RTP
import XCTest

/// Bytes produced by aiortc 1.16 (an independent WebRTC stack, PyPI), captured once from
/// its `bytes(RtcpSrPacket(...))` and `H264Encoder._packetize`: rtcswarm must parse
/// them to the same values and write the same bytes for the same content.
final class AiortcVectorTests: XCTestCase {
    private func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    func testAiortcCompoundOfSrSdesNackRembParsesAndIsWrittenIdentically() throws {
        let aiortc = hex(
            "81c8000c000000010102030405060708000000090000000a0000000b0000000240fffffd000100050000005aaabbccdd00010000"
                + "81ca000400000001010661696f7274630000000081cd00050000000100000002006480050075000000c80000"
                + "8fce0006000000010000000052454d420212625a0000000700000008")
        let expected: [RtcpPacket] = [
            .senderReport(
                SenderReport(
                    ssrc: 1, ntpTimestamp: 0x0102_0304_0506_0708, rtpTimestamp: 9, packetCount: 10, octetCount: 11,
                    reports: [
                        ReportBlock(
                            ssrc: 2, fractionLost: 64, cumulativeLost: -3, extendedHighestSequence: 65541, jitter: 90,
                            lastSenderReport: 0xAABB_CCDD, delaySinceLastSenderReport: 65536)
                    ])),
            .sourceDescription(SourceDescription(chunks: [.init(ssrc: 1, cname: "aiortc")])),
            .nack(GenericNack(senderSsrc: 1, mediaSsrc: 2, lost: [100, 101, 103, 116, 117, 200])),
            .remb(ReceiverEstimatedMaxBitrate(senderSsrc: 1, bitrate: 2_500_000, ssrcs: [7, 8])),
        ]
        XCTAssertEqual(try RtcpCompoundReader.parse(aiortc, requiresReportFirst: true), expected)
        var writer = ByteWriter()
        for packet in expected { packet.write(to: &writer) }
        XCTAssertEqual(writer.bytes, aiortc)
    }

    func testAiortcStapAForSpsPpsIdrMatchesOurs() {
        // SPS, PPS and a 6-byte IDR slice, each after a 4-byte start code.
        let accessUnit = hex("000000016742e01f0000000168ce3c8000000001658884002e3f")
        let aiortc = hex("7800046742e01f000468ce3c800006658884002e3f")
        var packetizer = H264Packetizer()
        XCTAssertEqual(
            packetizer.packetize(accessUnit, isKeyframe: true, maxPayloadSize: 1200),
            [RtpPayload(bytes: aiortc, marker: true)])
        var frame: [UInt8] = []
        XCTAssertNoThrow(try H264Depacketizer().append(ByteReader(aiortc), to: &frame))
        XCTAssertEqual(frame, accessUnit)
    }
}
