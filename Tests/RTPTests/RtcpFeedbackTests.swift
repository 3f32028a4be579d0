import RTCBase
import RTP
import XCTest

final class RtcpFeedbackTests: XCTestCase {
    private func bytes(_ packet: RtcpPacket) -> [UInt8] {
        var writer = ByteWriter()
        packet.write(to: &writer)
        return writer.bytes
    }

    func testNackBuildsPidAndBlpFromLostSet() {
        let nack = GenericNack(senderSsrc: 1, mediaSsrc: 0x0A0B_0C0D, lost: [100, 101, 103, 116, 117, 200])
        XCTAssertEqual(
            bytes(.nack(nack)),
            [
                0x81, 0xCD, 0x00, 0x05,  // V=2 P=0 FMT=1 | PT=205 RTPFB | length 5
                0x00, 0x00, 0x00, 0x01,  // sender SSRC 1
                0x0A, 0x0B, 0x0C, 0x0D,  // media SSRC
                0x00, 0x64, 0x80, 0x05,  // PID 100, BLP: 101 (bit 0), 103 (bit 2), 116 (bit 15)
                0x00, 0x75, 0x00, 0x00,  // PID 117 (17 after 100: a new item), BLP 0
                0x00, 0xC8, 0x00, 0x00,  // PID 200, BLP 0
            ])
        XCTAssertEqual(nack.lostSequenceNumbers, [100, 101, 103, 116, 117, 200])
    }

    func testNackAcrossSequenceWrapUsesOneItem() throws {
        let nack = GenericNack(senderSsrc: 1, mediaSsrc: 2, lost: [65534, 65535, 0, 1])
        XCTAssertEqual(nack.items, [.init(packetId: 65534, lostBitmask: 0b111)])
        let parsed = try RtcpCompoundReader.parse([
            0x81, 0xCD, 0x00, 0x03,  // V=2 FMT=1 PT=205 length 3
            0x00, 0x00, 0x00, 0x01,  // sender SSRC
            0x00, 0x00, 0x00, 0x02,  // media SSRC
            0xFF, 0xFE, 0x00, 0x07,  // PID 65534, BLP 65535, 0, 1
        ])
        XCTAssertEqual(parsed, [.nack(nack)])
        XCTAssertEqual(nack.lostSequenceNumbers, [65534, 65535, 0, 1])
    }

    func testPliAndFirBytes() throws {
        XCTAssertEqual(
            bytes(.pictureLoss(PictureLossIndication(senderSsrc: 1, mediaSsrc: 2))),
            [
                0x81, 0xCE, 0x00, 0x02,  // V=2 FMT=1 | PT=206 PSFB | length 2
                0, 0, 0, 1, 0, 0, 0, 2,  // sender SSRC 1, media SSRC 2
            ])
        let fir = FullIntraRequest(senderSsrc: 1, entries: [.init(ssrc: 0x1234_5678, sequenceNumber: 9)])
        let firBytes = bytes(.fullIntraRequest(fir))
        XCTAssertEqual(
            firBytes,
            [
                0x84, 0xCE, 0x00, 0x04,  // V=2 FMT=4 | PT=206 | length 4
                0, 0, 0, 1, 0, 0, 0, 0,  // sender SSRC 1, media SSRC unused (0)
                0x12, 0x34, 0x56, 0x78, 0x09, 0, 0, 0,  // FCI: SSRC, seq nr 9, reserved
            ])
        XCTAssertEqual(try RtcpCompoundReader.parse(firBytes), [.fullIntraRequest(fir)])
    }

    func testRembMantissaAndExponent() throws {
        let remb = ReceiverEstimatedMaxBitrate(senderSsrc: 1, bitrate: 2_500_000, ssrcs: [0xAABB_CCDD])
        let encoded = bytes(.remb(remb))
        // 2,500,000 = 312,500 << 3: exponent 3, mantissa 312,500 = 0x4C4B4 (over 18 bits:
        // shift once more) -> 156,250 << 4 = 0x2625A << 4.
        XCTAssertEqual(Array(encoded[12...19]), [0x52, 0x45, 0x4D, 0x42, 0x01, 0x12, 0x62, 0x5A])
        XCTAssertEqual(try RtcpCompoundReader.parse(encoded), [.remb(remb)])
    }

    func testTwccStatusVectorAndDeltaBytes() throws {
        let feedback = TransportCcFeedback(
            senderSsrc: 1, mediaSsrc: 2, baseSequence: 10, referenceTime: 3, feedbackCount: 7, deltas: [4, 8, nil])
        let encoded = bytes(.transportCc(feedback))
        XCTAssertEqual(
            encoded,
            [
                0x8F, 0xCD, 0x00, 0x05,  // V=2 FMT=15 | PT=205 | length 5
                0, 0, 0, 1, 0, 0, 0, 2,  // sender SSRC 1, media SSRC 2
                0x00, 0x0A, 0x00, 0x03,  // base sequence 10, status count 3
                0x00, 0x00, 0x03, 0x07,  // reference time 3 (x64 ms), feedback count 7
                0xB0, 0x00,  // T=1 S=0 one-bit vector: received, received, not received
                0x04, 0x08,  // small deltas 1 ms, 2 ms
            ])
        XCTAssertEqual(try RtcpCompoundReader.parse(encoded), [.transportCc(feedback)])
    }

    func testTwccRoundTripWithRunsLargeAndNegativeDeltas() throws {
        var deltas: [Int16?] = Array(repeating: 20, count: 30)  // run-length chunk of smalls
        deltas += [nil, nil, 300, -4, 0, 255, 256, nil]  // two-bit vector
        deltas += Array(repeating: nil, count: 10)  // run of not received
        deltas += [1, 2, 3]  // one-bit vector tail, padded with zeros
        let feedback = TransportCcFeedback(
            senderSsrc: 9, mediaSsrc: 8, baseSequence: 65530, referenceTime: -2, feedbackCount: 255, deltas: deltas)
        let encoded = bytes(.transportCc(feedback))
        XCTAssertEqual(Array(encoded[20...21]), [0x20, 0x1E], "S=1 run of 30")
        XCTAssertEqual(encoded.count % 4, 0)
        XCTAssertEqual(try RtcpCompoundReader.parse(encoded), [.transportCc(feedback)])
    }

    func testTwccFromArrivalTimesRestoresThem() {
        let base: Int64 = 3 * 64_000 + 1_000
        let arrivals: [Int64?] = [base, nil, base + 75_000, base + 74_000, base + 74_250, nil]
        let feedback = TransportCcFeedback(
            senderSsrc: 1, mediaSsrc: 2, baseSequence: 0, feedbackCount: 0, arrivalMicroseconds: arrivals)
        XCTAssertEqual(feedback.referenceTime, 3)
        XCTAssertEqual(feedback.deltas, [4, nil, 300, -4, 1, nil])
        XCTAssertEqual(feedback.arrivalMicroseconds, arrivals)
    }

    func testTwccRejectsReservedStatusAndZeroRun() {
        var header: [UInt8] = [0x8F, 0xCD, 0x00, 0x05, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0]
        header += [0x60, 0x01, 0, 0]  // run-length chunk with S=3 (reserved)
        XCTAssertThrowsError(try RtcpCompoundReader.parse(header))
        header[20] = 0x20
        header[21] = 0x00  // run of zero
        XCTAssertThrowsError(try RtcpCompoundReader.parse(header))
    }
}
