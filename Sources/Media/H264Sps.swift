import RTCBase

/// The fields of an H.264 sequence parameter set (ITU-T H.264 7.3.2.1.1) that tell what
/// a stream is: profile, level and the cropped picture size.
public struct H264Sps: Hashable, Sendable {
    public var profileIdc: UInt8
    /// constraint_set0_flag ... constraint_set5_flag and the reserved bits, as one byte.
    public var constraintFlags: UInt8
    public var levelIdc: UInt8
    /// The displayed size: coded macroblocks minus the frame cropping (7.4.2.1.1).
    public var resolution: Resolution

    /// `profile-level-id` as SDP writes it (RFC 6184 8.1), e.g. `42e01f`.
    public var profileLevelId: String {
        [profileIdc, constraintFlags, levelIdc].map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }

    /// Constrained Baseline (RFC 6184 8.1, table 5): profile_idc 66 with constraint_set1
    /// (OpenH264 writes `42c0xx`; browsers' SDP usually says `42e0xx`, the same profile).
    public var isConstrainedBaseline: Bool { profileIdc == 66 && constraintFlags & 0x40 != 0 }

    /// Profiles whose SPS carries chroma format, bit depths and scaling matrices.
    private static let highProfiles: Set<UInt8> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    /// Parses an SPS NAL unit (header byte included, emulation prevention still in).
    public init(nalUnit: ArraySlice<UInt8>) throws(ParseError) {
        guard AnnexB.nalType(nalUnit) == 7 else { throw .invalid("not an SPS NAL unit") }
        var bits = BitReader(AnnexB.removeEmulationPrevention(nalUnit.dropFirst()))
        profileIdc = UInt8(try bits.bits(8))
        constraintFlags = UInt8(try bits.bits(8))
        levelIdc = UInt8(try bits.bits(8))
        guard try bits.unsignedGolomb() <= 31 else { throw .invalid("seq_parameter_set_id > 31") }
        var chromaFormat: UInt32 = 1
        if Self.highProfiles.contains(profileIdc) {
            chromaFormat = try bits.unsignedGolomb()
            guard chromaFormat <= 3 else { throw .invalid("chroma_format_idc > 3") }
            if chromaFormat == 3, try bits.flag() { chromaFormat = 0 }  // separate_colour_plane: no chroma arrays
            _ = try bits.unsignedGolomb()  // bit_depth_luma_minus8
            _ = try bits.unsignedGolomb()  // bit_depth_chroma_minus8
            _ = try bits.flag()  // qpprime_y_zero_transform_bypass_flag
            if try bits.flag() {  // seq_scaling_matrix_present_flag
                for list in 0..<(chromaFormat == 3 ? 12 : 8) where try bits.flag() {
                    try Self.skipScalingList(&bits, size: list < 6 ? 16 : 64)
                }
            }
        }
        _ = try bits.unsignedGolomb()  // log2_max_frame_num_minus4
        switch try bits.unsignedGolomb() {  // pic_order_cnt_type
        case 0:
            _ = try bits.unsignedGolomb()  // log2_max_pic_order_cnt_lsb_minus4
        case 1:
            _ = try bits.flag()  // delta_pic_order_always_zero_flag
            _ = try bits.signedGolomb()  // offset_for_non_ref_pic
            _ = try bits.signedGolomb()  // offset_for_top_to_bottom_field
            let cycle = try bits.unsignedGolomb()
            guard cycle <= 255 else { throw .invalid("num_ref_frames_in_pic_order_cnt_cycle > 255") }
            for _ in 0..<cycle { _ = try bits.signedGolomb() }
        case 2:
            break
        default:
            throw .invalid("pic_order_cnt_type > 2")
        }
        _ = try bits.unsignedGolomb()  // max_num_ref_frames
        _ = try bits.flag()  // gaps_in_frame_num_value_allowed_flag
        let widthInMacroblocks = Int(try bits.unsignedGolomb()) + 1
        let heightInMapUnits = Int(try bits.unsignedGolomb()) + 1
        let frameMacroblocksOnly = try bits.flag()
        if !frameMacroblocksOnly { _ = try bits.flag() }  // mb_adaptive_frame_field_flag
        _ = try bits.flag()  // direct_8x8_inference_flag
        guard widthInMacroblocks <= 1024, heightInMapUnits <= 1024 else { throw ParseError(.tooLarge, "picture size") }
        var width = widthInMacroblocks * 16
        var height = heightInMapUnits * 16 * (frameMacroblocksOnly ? 1 : 2)
        if try bits.flag() {  // frame_cropping_flag (7.4.2.1.1, table 6-1)
            let cropX = chromaFormat == 1 || chromaFormat == 2 ? 2 : 1
            let cropY = (chromaFormat == 1 ? 2 : 1) * (frameMacroblocksOnly ? 1 : 2)
            let left = Int(try bits.unsignedGolomb()), right = Int(try bits.unsignedGolomb())
            let top = Int(try bits.unsignedGolomb()), bottom = Int(try bits.unsignedGolomb())
            width -= cropX * (left + right)
            height -= cropY * (top + bottom)
        }
        guard width > 0, height > 0 else { throw .invalid("frame cropping removes the whole picture") }
        resolution = Resolution(width: width, height: height)
    }

    /// scaling_list() (7.3.2.1.1.1): reads the delta_scale values and drops them.
    private static func skipScalingList(_ bits: inout BitReader, size: Int) throws(ParseError) {
        var last: Int32 = 8, next: Int32 = 8
        for _ in 0..<size where next != 0 {
            let delta = try bits.signedGolomb()
            guard (-128...127).contains(delta) else { throw .invalid("delta_scale out of range") }
            next = (last + delta + 256) % 256
            last = next == 0 ? last : next
        }
    }
}
