import Media
import RTCBase
import RTP
import XCTest

/// AV1 sequence header parsing (AV1 bitstream spec 5.5) on hand-built headers whose every
/// field is spelled out, and the inspector on what libaom writes.
final class Av1SequenceHeaderTests: XCTestCase {
    /// Packs a string of 0s and 1s (spaces ignored) into bytes, zero-padded at the end.
    private static func bits(_ text: String) -> [UInt8] {
        let digits = text.filter { $0 == "0" || $0 == "1" }.map { $0 == "1" ? UInt8(1) : 0 }
        return stride(from: 0, to: digits.count, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { byte, bit in byte << 1 | (start + bit < digits.count ? digits[start + bit] : 0) }
        }
    }

    /// Main profile, no timing info, one operating point at level 4.0 (seq_level_idx 8),
    /// 11 and 10 bits of size: 640x360.
    static let header360p = bits("""
        000 0 0   0 0 00000   000000000000 01000 0   1010 1001   01001111111 0101100111   0 1
        """)

    /// High profile with timing info, a decoder model (5-bit delays), initial display delay
    /// and two operating points, the first at seq_level_idx 12 with tier 1: 1920x1080.
    static let header1080pWithTiming = bits("""
        001 0 0   1 \(String(repeating: "0", count: 31))1 \(String(repeating: "0", count: 27))11110 1 1
        1 00100 \(String(repeating: "0", count: 31))1 00000 00000
        1 00001
        000000000001 01100 1 1 00011 00010 0 1 0011
        000000000010 00101 0 0
        1010 1010   11101111111 10000110111   0 1
        """)

    func testHeaderWithoutTimingInfo() throws {
        let header = try Av1SequenceHeader(payload: Self.header360p[...])
        XCTAssertEqual(header.maximumSize, .p360)
        XCTAssertEqual([header.profile, header.levelIndex, header.tier], [0, 8, 0])
        XCTAssertFalse(header.reducedStillPictureHeader)
    }

    func testTimingDecoderModelAndOperatingPointsAreSkipped() throws {
        let header = try Av1SequenceHeader(payload: Self.header1080pWithTiming[...])
        XCTAssertEqual(header.maximumSize, .p1080)
        XCTAssertEqual([header.profile, header.levelIndex, header.tier], [1, 12, 1])
    }

    func testReducedStillPictureHeader() throws {
        // seq_profile 0, still_picture 1, reduced 1, seq_level_idx 5, 8 and 8 bits: 200x100.
        let header = try Av1SequenceHeader(payload: Self.bits("000 1 1 00101 0111 0111 11000111 01100011")[...])
        XCTAssertEqual(header.maximumSize, Resolution(width: 200, height: 100))
        XCTAssertEqual(header.levelIndex, 5)
        XCTAssertTrue(header.reducedStillPictureHeader)
    }

    func testTruncatedAndInvalidHeadersThrow() {
        XCTAssertThrowsError(try Av1SequenceHeader(payload: Self.header360p.prefix(4)))
        XCTAssertThrowsError(try Av1SequenceHeader(payload: Self.bits("111 0 0 0 0")[...]), "seq_profile 7")
        XCTAssertThrowsError(try Av1SequenceHeader(payload: []))
    }

    func testInspectorReadsLibaomKeyFramesAndDeltaFrames() throws {
        for resolution in [Resolution.p360, .p720, Resolution(width: 1366, height: 768)] {
            let encoder = try VideoEncoderConfig(codec: .av1, bitrate: VideoEncoderConfig.defaultBitrate(for: resolution),
                                                 keyframeInterval: 3).makeEncoder()
            var source = VideoSource()
            var keyframes: [Int] = []
            for index in 0..<4 {
                let encoded = try XCTUnwrap(try encoder.encode(source.frame(index: index, resolution: resolution, captureTime: .zero)))
                let inspected = try BitstreamInspector.inspect(encoded.bytes, codec: .av1)
                XCTAssertEqual(inspected.isKeyframe, encoded.isKeyframe, "\(resolution) frame \(index)")
                XCTAssertEqual(inspected.resolution, encoded.isKeyframe ? resolution : nil, "\(resolution) frame \(index)")
                XCTAssertEqual(try Av1Obu.split(encoded.bytes).first?.type, Av1Obu.temporalDelimiter, "libaom opens each unit with one")
                if encoded.isKeyframe { keyframes.append(index) }
            }
            XCTAssertEqual(keyframes, [0, 3], "\(resolution): keyframe interval 3")
        }
    }

    func testInspectorRefusesGarbage() {
        XCTAssertThrowsError(try Av1Inspector.inspect(temporalUnit: []))
        XCTAssertThrowsError(try Av1Inspector.inspect(temporalUnit: [0x30, 0x10]), "an OBU without obu_size")
        XCTAssertThrowsError(try Av1Inspector.inspect(temporalUnit: [0x0A, 0x09, 0x00]), "obu_size past the end")
        XCTAssertThrowsError(try Av1Inspector.inspect(temporalUnit: [0x32, 0x00]), "a frame OBU without a header")
    }
}
