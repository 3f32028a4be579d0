import RTP
import Media
import RTCBase
import XCTest

/// Header parsing against hand-assembled bitstreams (fields commented) and real encoder
/// output.
final class BitstreamInspectorTests: XCTestCase {
    func testVp8KeyFrameHeaderGivesTheSize() throws {
        let frame: [UInt8] = [
            0x50, 0x01, 0x00,  // frame tag: key_frame=0 (key), version 0, show_frame 1, first_part_size 10
            0x9D, 0x01, 0x2A,  // start code
            0x40, 0x41,  // width 320 (0x140), horizontal_scale 1 (top bits)
            0xB4, 0x00,  // height 180, vertical_scale 0
        ] + [UInt8](repeating: 0, count: 10)  // first partition
        XCTAssertEqual(try Vp8Header.inspect(frame), FrameInspection(isKeyframe: true, resolution: .p180))
    }

    func testVp8InterFrameHasNoSize() throws {
        let frame: [UInt8] = [0x51, 0x00, 0x00, 0xAA, 0xBB]  // key_frame=1 (inter), show 1, first_part_size 2
        XCTAssertEqual(try Vp8Header.inspect(frame), FrameInspection(isKeyframe: false, resolution: nil))
    }

    func testVp8GarbageIsRejected() {
        XCTAssertThrowsError(try Vp8Header.inspect([0x50, 0x01]), "shorter than the frame tag")
        XCTAssertThrowsError(try Vp8Header.inspect([0x50, 0x01, 0x00, 0x9D, 0x01, 0x2B, 0x40, 0x01, 0xB4, 0x00]), "start code")
        XCTAssertThrowsError(try Vp8Header.inspect([0x50, 0x01, 0x00, 0x9D, 0x01, 0x2A, 0x40, 0x01]), "truncated size")
        XCTAssertThrowsError(try Vp8Header.inspect([0x50, 0x01, 0x00, 0x9D, 0x01, 0x2A, 0x40, 0x01, 0xB4, 0x00]),
                             "first partition longer than the frame")
        XCTAssertThrowsError(try Vp8Header.inspect([0x0E, 0x00, 0x00, 0x9D]), "version 7")
    }

    func testVp9KeyFrameHeaderGivesTheSize() throws {
        let frame: [UInt8] = [
            0x82,  // frame_marker 2, profile 0, show_existing_frame 0, frame_type 0 (key), show_frame 1, error_res 0
            0x49, 0x83, 0x42,  // frame_sync_code
            0x20,  // color_space 1 (BT.601), color_range 0, then width_minus_1 starts
            0x13, 0xF0,  // frame_width_minus_1 = 319
            0x0B, 0x30,  // frame_height_minus_1 = 179
        ]
        XCTAssertEqual(try Vp9Header.inspect(frame), FrameInspection(isKeyframe: true, resolution: .p180))
    }

    func testVp9IntraOnlyFrameGivesTheSizeButIsNotAKeyframe() throws {
        let frame: [UInt8] = [
            0x84,  // frame_marker 2, profile 0, show_existing 0, frame_type 1 (non-key), show_frame 0, error_res 0
            0x89, 0x30, 0x68, 0x40,  // intra_only 1, reset_frame_context 0, frame_sync_code 0x498342 (bit-shifted)
            0x20,  // refresh_frame_flags 0x01
            0x4F, 0xE0, 0x2C, 0xE0,  // width_minus_1 639, height_minus_1 359
        ]
        XCTAssertEqual(try Vp9Header.inspect(frame), FrameInspection(isKeyframe: false, resolution: .p360))
    }

    func testVp9SuperframeIsInspectedFrameByFrame() throws {
        let inter: [UInt8] = [0x86, 0x00, 0x00]  // frame_marker 2, profile 0, inter, show_frame 1
        let key: [UInt8] = [0x82, 0x49, 0x83, 0x42, 0x20, 0x13, 0xF0, 0x0B, 0x30]
        // Index: marker 0b110_00_001 (1-byte sizes, 2 frames), sizes 3 and 9, marker again.
        let superframe = inter + key + [0xC1, 0x03, 0x09, 0xC1]
        XCTAssertEqual(try Vp9Header.inspect(superframe), FrameInspection(isKeyframe: true, resolution: .p180))
        XCTAssertThrowsError(try Vp9Header.inspect(inter + key + [0xC1, 0x03, 0x0A, 0xC1]), "sizes beyond the data")
    }

    func testVp9GarbageIsRejected() {
        XCTAssertThrowsError(try Vp9Header.inspect([]))
        XCTAssertThrowsError(try Vp9Header.inspect([0x42, 0x49, 0x83, 0x42]), "frame_marker 1")
        XCTAssertThrowsError(try Vp9Header.inspect([0x82, 0x49, 0x83, 0x43, 0x20, 0x13, 0xF0, 0x0B, 0x30]), "sync code")
        XCTAssertThrowsError(try Vp9Header.inspect([0x82, 0x49, 0x83, 0x42, 0x20, 0x13]), "truncated size")
    }

    func testBaselineSpsWithCroppingGives320x180() throws {
        let sps: [UInt8] = [
            0x67,  // forbidden 0, nal_ref_idc 3, nal_unit_type 7 (SPS)
            0x42, 0xC0, 0x1F,  // profile_idc 66, constraint_set0+1, level_idc 31
            // sps_id 0, log2_max_frame_num-4 0, poc_type 2, max_num_ref_frames 1, gaps 0,
            // pic_width_in_mbs-1 19 (320), pic_height_in_map_units-1 11 (192), frame_mbs_only 1,
            // direct_8x8 1, frame_cropping 1: left 0 right 0 top 0 bottom 6 (x2 = 12 rows), vui 0, stop bit
            0xDA, 0x05, 0x06, 0x7E, 0x74,
        ]
        let parsed = try H264Sps(nalUnit: sps[...])
        XCTAssertEqual(parsed.resolution, .p180)
        XCTAssertEqual(parsed.profileLevelId, "42c01f")
        XCTAssertTrue(parsed.isConstrainedBaseline)
    }

    func testHighProfileInterlacedSpsWithScalingListGives1920x1080() throws {
        let sps: [UInt8] = [
            0x67,
            0x64, 0x00, 0x28,  // profile_idc 100 (High), no constraints, level_idc 40
            // sps_id 0, chroma_format_idc 1, bit depths 0 0, bypass 0, seq_scaling_matrix 1:
            // list 0 present with delta_scale -8 (ends it), lists 1-7 absent; log2_max_frame_num-4 0,
            // poc_type 0, log2_max_poc_lsb-4 2, max_num_ref_frames 4, gaps 0, width_in_mbs-1 119 (1920),
            // height_in_map_units-1 33 (34 x 32 = 1088), frame_mbs_only 0, mbaff 1, direct_8x8 1,
            // cropping: 0 0 0 2 (x4 = 8 rows), vui 0, stop bit
            0xAD, 0x84, 0x40, 0x6C, 0xA0, 0x3C, 0x02, 0x27, 0xED,
        ]
        let parsed = try H264Sps(nalUnit: sps[...])
        XCTAssertEqual(parsed.resolution, .p1080)
        XCTAssertEqual(parsed.profileLevelId, "640028")
        XCTAssertFalse(parsed.isConstrainedBaseline)
    }

    func testSpsGarbageIsRejected() {
        let good: [UInt8] = [0x67, 0x42, 0xC0, 0x1F, 0xDA, 0x05, 0x06, 0x7E, 0x74]
        for length in 0..<8 { XCTAssertThrowsError(try H264Sps(nalUnit: good[0..<length]), "truncated to \(length)") }
        XCTAssertThrowsError(try H264Sps(nalUnit: [0x68, 0x42, 0xC0, 0x1F][...]), "a PPS")
        XCTAssertThrowsError(try H264Sps(nalUnit: [0x67, 0x42, 0xC0, 0x1F, 0x00, 0x00, 0x00, 0x00, 0x01][...]),
                             "exp-Golomb longer than 32 bits")
    }

    func testRealFramesInspectAsEncoded() throws {
        for codec in [Codec.vp8, .vp9, .h264, .h265] {
            let encoder = try VideoEncoderConfig(codec: codec, bitrate: 500_000).makeEncoder()
            var source = VideoSource()
            for index in 0..<3 {
                let frame = source.frame(index: index, width: 480, height: 270, captureTime: .zero)
                let encoded = try XCTUnwrap(try encoder.encode(frame))
                let inspection = try BitstreamInspector.inspect(encoded.bytes, codec: codec)
                XCTAssertEqual(inspection.isKeyframe, index == 0, "\(codec) \(index)")
                XCTAssertEqual(inspection.resolution, index == 0 ? Resolution(width: 480, height: 270) : nil)
            }
        }
        XCTAssertThrowsError(try BitstreamInspector.inspect([1, 2, 3], codec: .opus))
    }

    func testH264InspectionEndsAtTheFirstSlice() throws {
        let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1F, 0xDA, 0x05, 0x06, 0x7E, 0x74]
        // A unit with forbidden_zero_bit set after the slice would throw if it were read.
        let unit: [UInt8] = [0, 0, 0, 1] + sps + [0, 0, 0, 1, 0x65, 0x88, 0x84] + [0, 0, 1, 0xE5, 0x88]
        let inspection = try H264Inspector.inspect(accessUnit: unit)
        XCTAssertEqual(inspection, FrameInspection(isKeyframe: true, resolution: .p180))
        let delta = try H264Inspector.inspect(accessUnit: [0, 0, 0, 1, 0x41, 0x9A] + [0, 0, 0, 1, 0x65, 0x88])
        XCTAssertFalse(delta.isKeyframe, "the first slice is a non-IDR one: so is the picture")
    }

    func testH264WithoutStartCodeIsRejected() {
        XCTAssertThrowsError(try H264Inspector.inspect(accessUnit: [0x67, 0x42, 0xC0, 0x1F]))
        XCTAssertThrowsError(try H264Inspector.inspect(accessUnit: [0, 0, 1, 0xE5, 0x88]), "forbidden_zero_bit")
    }
}
