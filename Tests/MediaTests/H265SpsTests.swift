import Media
import RTCBase
import XCTest

/// H.265 SPS parsing (ITU-T H.265 7.3.2.2.1) on hand-built parameter sets whose every field
/// is spelled out, and on what x265 writes.
final class H265SpsTests: XCTestCase {
    /// 1920x1088 coded, conformance window bottom 4 (x2 rows in 4:2:0) = 1920x1080.
    static let sps1080p: [UInt8] = [
        0x42, 0x01,  // forbidden 0, nal_unit_type 33 (SPS), LayerId 0, TID 0
        // vps_id 0, max_sub_layers_minus1 0, temporal_id_nesting 1; profile_tier_level:
        // space 0, tier 0, profile_idc 1 (Main), compatibility flags 1 and 2, progressive 1,
        // frame_only 1, 44 zero bits, level_idc 120 (4.0); emulation prevention 03 after 00 00
        0x01, 0x01, 0x60, 0x00, 0x00, 0x03, 0x00, 0x90, 0x00, 0x00, 0x03, 0x00, 0x00, 0x03, 0x00, 0x78,
        // sps_id 0, chroma_format_idc 1, width 1920, height 1088, conformance_window 1:
        // left 0 right 0 top 0 bottom 4, stop bit
        0xA0, 0x03, 0xC0, 0x80, 0x11, 0x07, 0xCB,
    ]

    /// Two sub-layers with sub-layer profile and level, 4:4:4: 1282x720 coded, window left 1
    /// right 1 (one luma column each in 4:4:4) = 1280x720.
    static let spsWithSubLayers: [UInt8] = [
        0x42, 0x01,
        // vps_id 0, max_sub_layers_minus1 1, nesting 0; general PTL as above with level_idc 93 (3.1)
        0x02, 0x01, 0x60, 0x00, 0x00, 0x03, 0x00, 0x90, 0x00, 0x00, 0x03, 0x00, 0x00, 0x03, 0x00, 0x5D,
        // sub_layer_profile_present 1, sub_layer_level_present 1, reserved 2 bits x 7, then
        // 88 zero bits of sub-layer profile and sub_layer_level_idc 93
        0xC0, 0x00, 0x00, 0x03, 0x00, 0x00, 0x03, 0x00, 0x00, 0x03, 0x00, 0x00, 0x03, 0x00, 0x00, 0x03, 0x00, 0x00, 0x5D,
        // sps_id 0, chroma_format_idc 3, separate_colour_plane 0, width 1282, height 720,
        // conformance_window 1: left 1 right 1 top 0 bottom 0, stop bit
        0x90, 0x00, 0x50, 0x30, 0x05, 0xA3, 0x4B, 0x80,
    ]

    func testConformanceWindowCrops1088RowsTo1080() throws {
        let sps = try H265Sps(nalUnit: Self.sps1080p[...])
        XCTAssertEqual(sps.resolution, .p1080)
        XCTAssertEqual([sps.profileIdc, sps.tierFlag, sps.levelIdc], [1, 0, 120])
    }

    func testSubLayerProfilesAreSkippedAnd444CropsInLumaColumns() throws {
        let sps = try H265Sps(nalUnit: Self.spsWithSubLayers[...])
        XCTAssertEqual(sps.resolution, .p720)
        XCTAssertEqual(sps.levelIdc, 93)
    }

    func testInspectorTakesTheSizeFromTheSpsOfAnAccessUnit() throws {
        let idr: [UInt8] = [0, 0, 0, 1, 0x26, 0x01, 0xAF, 0x09]  // IDR_W_RADL slice, type 19
        let keyframe = try H265Inspector.inspect(accessUnit: [0, 0, 0, 1] + Self.sps1080p + idr)
        XCTAssertEqual(keyframe, FrameInspection(isKeyframe: true, resolution: .p1080))
        let delta = try H265Inspector.inspect(accessUnit: [0, 0, 1, 0x02, 0x01, 0xD0, 0x11])  // TRAIL_R, type 1
        XCTAssertEqual(delta, FrameInspection(isKeyframe: false, resolution: nil))
    }

    func testX265SpsGivesThePublishedSizeIncludingSizesOffItsCodingUnits() throws {
        // x265 codes 1080 rows as 1088 and 1366 columns as 1368; the conformance window crops them.
        for resolution in [Resolution.p180, .p360, .p1080, Resolution(width: 1366, height: 768)] {
            let encoder = try VideoEncoderConfig(codec: .h265, bitrate: 500_000).makeEncoder()
            var source = VideoSource()
            let encoded = try XCTUnwrap(try encoder.encode(source.frame(index: 0, resolution: resolution, captureTime: .zero)))
            let sps = try XCTUnwrap(AnnexB.nalUnits(in: encoded.bytes).map { encoded.bytes[$0] }.first { $0.first == 0x42 })
            let parsed = try H265Sps(nalUnit: sps)
            XCTAssertEqual(parsed.resolution, resolution)
            XCTAssertEqual(parsed.profileIdc, 1, "Main profile")
        }
    }

    func testMalformedSpsThrows() {
        for length in 0..<20 {
            XCTAssertThrowsError(try H265Sps(nalUnit: Self.sps1080p[0..<length]), "truncated to \(length)")
        }
        XCTAssertThrowsError(try H265Sps(nalUnit: [0x44, 0x01, 0xC1][...]), "a PPS")
        XCTAssertThrowsError(try H265Sps(nalUnit: [0x67, 0x42, 0xC0, 0x1F][...]), "an H.264 SPS")
        var wholeCrop = Self.sps1080p
        wholeCrop[wholeCrop.count - 1] = 0x00  // bottom offset becomes a code running out of bits
        XCTAssertThrowsError(try H265Sps(nalUnit: wholeCrop[...]))
        XCTAssertThrowsError(try H265Inspector.inspect(accessUnit: [1, 2, 3]), "no start code")
        XCTAssertThrowsError(try H265Inspector.inspect(accessUnit: [0, 0, 1, 0x26]), "one-byte NAL unit")
        XCTAssertThrowsError(try H265Inspector.inspect(accessUnit: [0, 0, 1, 0xA6, 0x01]), "forbidden bit")
    }
}
