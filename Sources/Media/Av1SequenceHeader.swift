import RTCBase

/// The fields of an AV1 sequence header OBU (AV1 bitstream spec 5.5) that tell what a
/// stream is: seq_profile, the first operating point's level and tier, and the largest
/// frame size (max_frame_width_minus_1 + 1 by max_frame_height_minus_1 + 1), which is the
/// picture size when the encoder keeps one size, as a WebRTC sender between keyframes does.
public struct Av1SequenceHeader: Hashable, Sendable {
    /// seq_profile: 0 Main, 1 High, 2 Professional.
    public var profile: UInt8
    /// seq_level_idx[0] (annex A.3: 8 is level 4.0).
    public var levelIndex: UInt8
    /// seq_tier[0].
    public var tier: UInt8
    public var reducedStillPictureHeader: Bool
    public var maximumSize: Resolution

    /// Parses the payload of a sequence header OBU (after its header and obu_size).
    public init(payload: ArraySlice<UInt8>) throws(ParseError) {
        var bits = BitReader(Array(payload))
        profile = UInt8(try bits.bits(3))
        guard profile <= 2 else { throw .invalid("seq_profile \(profile)") }
        _ = try bits.flag()  // still_picture
        reducedStillPictureHeader = try bits.flag()
        tier = 0
        if reducedStillPictureHeader {
            levelIndex = UInt8(try bits.bits(5))
        } else {
            levelIndex = 0
            try Self.skipTimingAndOperatingPoints(&bits, level: &levelIndex, tier: &tier)
        }
        let widthBits = Int(try bits.bits(4)) + 1, heightBits = Int(try bits.bits(4)) + 1
        let width = Int(try bits.bits(widthBits)) + 1, height = Int(try bits.bits(heightBits)) + 1
        guard width <= 65_536, height <= 65_536 else { throw ParseError(.tooLarge, "frame size \(width)x\(height)") }
        maximumSize = Resolution(width: width, height: height)
    }

    /// timing_info (5.5.3), decoder_model_info (5.5.4) and the operating points (5.5.1),
    /// keeping the first operating point's seq_level_idx and seq_tier.
    private static func skipTimingAndOperatingPoints(_ bits: inout BitReader, level: inout UInt8, tier: inout UInt8) throws(ParseError) {
        var decoderModelInfo = false
        var bufferDelayBits = 0
        if try bits.flag() {  // timing_info_present_flag
            _ = try bits.bits(32)  // num_units_in_display_tick
            _ = try bits.bits(32)  // time_scale
            if try bits.flag() { _ = try bits.uvlc() }  // equal_picture_interval, num_ticks_per_picture_minus_1
            decoderModelInfo = try bits.flag()
            if decoderModelInfo {
                bufferDelayBits = Int(try bits.bits(5)) + 1
                _ = try bits.bits(32)  // num_units_in_decoding_tick
                _ = try bits.bits(10)  // buffer_removal_time_length_minus_1, frame_presentation_time_length_minus_1
            }
        }
        let initialDisplayDelay = try bits.flag()
        let operatingPoints = Int(try bits.bits(5)) + 1
        for point in 0..<operatingPoints {
            _ = try bits.bits(12)  // operating_point_idc
            let pointLevel = UInt8(try bits.bits(5))
            let pointTier = pointLevel > 7 ? UInt8(try bits.bit()) : 0
            if point == 0 { (level, tier) = (pointLevel, pointTier) }
            if decoderModelInfo, try bits.flag() {  // decoder_model_present_for_this_op
                _ = try bits.bits(bufferDelayBits)  // decoder_buffer_delay
                _ = try bits.bits(bufferDelayBits)  // encoder_buffer_delay
                _ = try bits.flag()  // low_delay_mode_flag
            }
            if initialDisplayDelay, try bits.flag() { _ = try bits.bits(4) }  // initial_display_delay_minus_1
        }
    }
}
