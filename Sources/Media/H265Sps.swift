import RTCBase

/// The fields of an H.265 sequence parameter set (ITU-T H.265 7.3.2.2.1) that tell what a
/// stream is: general profile, tier and level (7.3.3) and the picture size inside the
/// conformance window (7.4.3.2.1).
public struct H265Sps: Hashable, Sendable {
    /// general_profile_idc (1 Main, 2 Main 10...), `profile-id` in SDP (RFC 7798 7.1).
    public var profileIdc: UInt8
    /// general_tier_flag, `tier-flag` in SDP.
    public var tierFlag: UInt8
    /// general_level_idc: 30 times the level (93 is 3.1), `level-id` in SDP.
    public var levelIdc: UInt8
    /// The displayed size: the coded luma size minus the conformance window.
    public var resolution: Resolution

    /// The SPS NAL unit type (H.265 table 7-1).
    static let nalType: UInt8 = 33

    /// Parses an SPS NAL unit (2-byte header included, emulation prevention still in).
    public init(nalUnit: ArraySlice<UInt8>) throws(ParseError) {
        guard nalUnit.count > 2, nalUnit[nalUnit.startIndex] >> 1 & 0x3F == Self.nalType else {
            throw .invalid("not an H.265 SPS NAL unit")
        }
        var bits = BitReader(AnnexB.removeEmulationPrevention(nalUnit.dropFirst(2)))
        _ = try bits.bits(4)  // sps_video_parameter_set_id
        let maxSubLayersMinus1 = Int(try bits.bits(3))
        guard maxSubLayersMinus1 < 7 else { throw .invalid("sps_max_sub_layers_minus1 is 7") }
        _ = try bits.flag()  // sps_temporal_id_nesting_flag
        // profile_tier_level(1, sps_max_sub_layers_minus1) (7.3.3)
        _ = try bits.bits(2)  // general_profile_space
        tierFlag = UInt8(try bits.bit())
        profileIdc = UInt8(try bits.bits(5))
        _ = try bits.bits(32)  // general_profile_compatibility_flag[32]
        _ = try bits.bits(32)  // progressive, interlaced, non-packed, frame-only, constraint and
        _ = try bits.bits(16)  // reserved flags: 48 bits in all
        levelIdc = UInt8(try bits.bits(8))
        var profilePresent: [Bool] = [], levelPresent: [Bool] = []
        for _ in 0..<maxSubLayersMinus1 {
            profilePresent.append(try bits.flag())
            levelPresent.append(try bits.flag())
        }
        if maxSubLayersMinus1 > 0 { _ = try bits.bits(2 * (8 - maxSubLayersMinus1)) }  // reserved_zero_2bits
        for layer in 0..<maxSubLayersMinus1 {
            if profilePresent[layer] { for _ in 0..<11 { _ = try bits.bits(8) } }  // 88 bits of sub-layer profile
            if levelPresent[layer] { _ = try bits.bits(8) }  // sub_layer_level_idc
        }
        guard try bits.unsignedGolomb() <= 15 else { throw .invalid("sps_seq_parameter_set_id > 15") }
        let chromaFormat = try bits.unsignedGolomb()
        guard chromaFormat <= 3 else { throw .invalid("chroma_format_idc > 3") }
        let separateColourPlanes = chromaFormat == 3 ? try bits.flag() : false
        let width = Int(try bits.unsignedGolomb()), height = Int(try bits.unsignedGolomb())
        guard (1...16_888).contains(width), (1...16_888).contains(height) else { throw ParseError(.tooLarge, "picture size") }
        var cropped = (width: width, height: height)
        if try bits.flag() {  // conformance_window_flag: offsets in chroma units (table 6-1)
            let chromaArrayType = separateColourPlanes ? 0 : chromaFormat
            let unitX = chromaArrayType == 1 || chromaArrayType == 2 ? 2 : 1
            let unitY = chromaArrayType == 1 ? 2 : 1
            let left = Int(try bits.unsignedGolomb()), right = Int(try bits.unsignedGolomb())
            let top = Int(try bits.unsignedGolomb()), bottom = Int(try bits.unsignedGolomb())
            cropped.width -= unitX * (left + right)
            cropped.height -= unitY * (top + bottom)
        }
        guard cropped.width > 0, cropped.height > 0 else { throw .invalid("conformance window removes the whole picture") }
        resolution = Resolution(width: cropped.width, height: cropped.height)
    }
}
