import Media
import RTCBase
import XCTest

/// Annex-B framing, emulation prevention and the frame-identity SEI.
final class AnnexBTests: XCTestCase {
    func testNalUnitsAreFoundBetweenThreeAndFourByteStartCodes() {
        let stream: [UInt8] = [
            0xFF,  // junk before the first start code: ignored
            0, 0, 0, 1, 0x67, 0x42,  // SPS
            0, 0, 1, 0x68, 0xCE, 0x00,  // PPS with a trailing zero byte (trailing_zero_8bits)
            0, 0, 0, 1, 0x65, 0x88, 0x84,  // IDR slice
        ]
        let units = AnnexB.nalUnits(in: stream)
        XCTAssertEqual(units.map { Array(stream[$0]) }, [[0x67, 0x42], [0x68, 0xCE], [0x65, 0x88, 0x84]])
        XCTAssertEqual(AnnexB.nalUnits(in: [0x67, 0x42, 0x00]), [])
    }

    func testAWalkEndingAtTheFirstSliceLeavesItsBytesUnsearched() {
        let stream: [UInt8] = [
            0, 0, 0, 1, 0x67, 0x42,  // SPS
            0, 0, 0, 1, 0x65, 0x88, 0x00,  // IDR slice, then another one
            0, 0, 1, 0x65, 0x99,
        ]
        let units = AnnexB.nalUnits(in: stream, last: { $0 & 0x1F == 5 })
        XCTAssertEqual(units, [4..<6, 10..<stream.count], "the slice runs to the end: the second start code is never looked for")
    }

    func testEmulationPreventionRoundTrips() {
        let rbsp: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x03, 0x00, 0x00, 0x04]
        let escaped = AnnexB.addEmulationPrevention(rbsp)
        // 00 00 03 before every byte <= 3 that follows two zeros
        XCTAssertEqual(escaped, [0x00, 0x00, 0x03, 0x00, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x03, 0x03, 0x00, 0x00, 0x04])
        XCTAssertEqual(AnnexB.removeEmulationPrevention(escaped), rbsp)
    }

    func testSeiRoundTripsIndicesThatNeedEscaping() throws {
        for index in [0, 1, 3, 0x0000_0100, 0x0001_0000, Int(Int32.max), 1 << 40] {
            let stamp = FrameStamp(index: index, captureTime: Instant(nanoseconds: 0x0000_0000_0300_0000))
            let unit = H264FrameSei.nalUnit(for: stamp)
            XCTAssertEqual(unit[0], 0x06, "nal_unit_type 6")
            XCTAssertTrue(AnnexB.nalUnits(in: [0, 0, 0, 1] + unit).count == 1, "no start code inside the SEI")
            XCTAssertEqual(try H264FrameSei.read(nalUnit: unit[...]), stamp)
        }
    }

    func testSeiLayoutIsTheDocumentedOne() {
        let unit = H264FrameSei.nalUnit(for: FrameStamp(index: 0x0102_0304, captureTime: Instant(nanoseconds: 0x1122_3344_5566_7788)))
        XCTAssertEqual(unit, [
            0x06,  // SEI
            0x05, 0x20,  // payloadType 5 (user_data_unregistered), payloadSize 32
        ] + Array("rtcswarm-frameid".utf8) + [
            0, 0, 0x03, 0, 0, 0x03, 0x01, 0x02, 0x03, 0x04,  // frame index 00 00 00 00 01 02 03 04, escaped
            0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,  // capture time, ns
            0x80,  // rbsp_trailing_bits
        ])
    }

    func testForeignSeiIsSkippedAndBrokenSeiThrows() throws {
        // A recovery point SEI (type 6, size 1) then ours: the reader finds ours.
        let ours = H264FrameSei.nalUnit(for: FrameStamp(index: 9, captureTime: .zero))
        let combined: [UInt8] = [0x06, 0x06, 0x01, 0x84] + ours.dropFirst()
        XCTAssertEqual(try H264FrameSei.read(nalUnit: combined[...]), FrameStamp(index: 9, captureTime: .zero))
        // Another UUID: no stamp.
        var foreign = ours
        foreign[3] ^= 0xFF
        XCTAssertNil(try H264FrameSei.read(nalUnit: foreign[...]))
        // payloadSize beyond the NAL unit.
        XCTAssertThrowsError(try H264FrameSei.read(nalUnit: [0x06, 0x05, 0x40, 0x72, 0x74][...]))
        XCTAssertNil(try H264FrameSei.read(nalUnit: [0x67, 0x42][...]), "not an SEI")
    }

    func testAccessUnitsAreSplitAtPictureBoundaries() throws {
        let encoder = try VideoEncoderConfig(codec: .h264, bitrate: 300_000, keyframeInterval: 5).makeEncoder()
        var source = VideoSource()
        let units = try (0..<12).map { index in
            try XCTUnwrap(try encoder.encode(source.frame(index: index, resolution: .p180, captureTime: .zero))).bytes
        }
        XCTAssertEqual(AnnexB.accessUnits(in: Array(units.joined())), units)
        // The same stream with 3-byte start codes splits the same way.
        let short = units.map { unit in AnnexB.nalUnits(in: unit).flatMap { [0, 0, 1] + unit[$0] } }
        XCTAssertEqual(AnnexB.accessUnits(in: Array(short.joined())), units)
    }
}
