import RTCBase

/// The VP9 uncompressed header (VP9 bitstream spec 6.2 and 7.2), up to the frame size of
/// key frames and intra-only frames; superframes (annex B) are looked into frame by frame.
public enum Vp9Header {
    /// Key frame flag and, for key and intra-only frames, the size; throws on a short or
    /// invalid header or superframe index.
    public static func inspect(_ bytes: [UInt8]) throws(ParseError) -> FrameInspection {
        let frames = try superframe(bytes)
        var result = FrameInspection(isKeyframe: false, resolution: nil)
        for frame in frames {
            let inspection = try inspectFrame(Array(bytes[frame]))
            result.isKeyframe = result.isKeyframe || inspection.isKeyframe
            result.resolution = result.resolution ?? inspection.resolution
        }
        return result
    }

    /// The frames of a superframe (annex B.3), or the whole input when it has no index.
    static func superframe(_ bytes: [UInt8]) throws(ParseError) -> [Range<Int>] {
        guard let marker = bytes.last else { throw .truncated("VP9 frame") }
        guard marker & 0xE0 == 0xC0 else { return [0..<bytes.count] }
        let frameCount = Int(marker & 7) + 1
        let sizeBytes = Int(marker >> 3 & 3) + 1
        let indexSize = 2 + sizeBytes * frameCount
        guard bytes.count >= indexSize, bytes[bytes.count - indexSize] == marker else {
            return [0..<bytes.count]  // not an index after all: a frame ending in such a byte
        }
        var ranges: [Range<Int>] = []
        var start = 0
        var position = bytes.count - indexSize + 1
        for _ in 0..<frameCount {
            var size = 0
            for byte in 0..<sizeBytes { size |= Int(bytes[position + byte]) << (8 * byte) }
            position += sizeBytes
            guard size > 0, start + size <= bytes.count - indexSize else { throw .invalid("VP9 superframe sizes") }
            ranges.append(start..<(start + size))
            start += size
        }
        return ranges
    }

    /// uncompressed_header() (6.2) of one frame.
    static func inspectFrame(_ bytes: [UInt8]) throws(ParseError) -> FrameInspection {
        var bits = BitReader(bytes)
        guard try bits.bits(2) == 2 else { throw .invalid("VP9 frame_marker") }
        let profileLow = try bits.bit()
        let profile = profileLow | (try bits.bit()) << 1
        if profile == 3 { guard try bits.bit() == 0 else { throw .invalid("VP9 reserved_zero") } }
        if try bits.flag() {  // show_existing_frame: a repeat of a decoded frame, 3-bit index
            _ = try bits.bits(3)
            return FrameInspection(isKeyframe: false, resolution: nil)
        }
        let isKeyframe = try bits.bit() == 0  // frame_type: 0 = KEY_FRAME
        let showFrame = try bits.flag()
        let errorResilient = try bits.flag()
        if isKeyframe {
            try syncCode(&bits)
            try colorConfig(&bits, profile: profile)
            return FrameInspection(isKeyframe: true, resolution: try frameSize(&bits))
        }
        let intraOnly = showFrame ? false : try bits.flag()
        if !errorResilient { _ = try bits.bits(2) }  // reset_frame_context
        guard intraOnly else { return FrameInspection(isKeyframe: false, resolution: nil) }
        try syncCode(&bits)
        if profile > 0 { try colorConfig(&bits, profile: profile) }
        _ = try bits.bits(8)  // refresh_frame_flags
        return FrameInspection(isKeyframe: false, resolution: try frameSize(&bits))
    }

    private static func syncCode(_ bits: inout BitReader) throws(ParseError) {
        guard try bits.bits(24) == 0x498342 else { throw .invalid("VP9 frame_sync_code") }
    }

    /// color_config() (6.2.2).
    private static func colorConfig(_ bits: inout BitReader, profile: UInt32) throws(ParseError) {
        if profile >= 2 { _ = try bits.bit() }  // ten_or_twelve_bit
        let colorSpace = try bits.bits(3)
        if colorSpace != 7 {  // not CS_RGB
            _ = try bits.bit()  // color_range
            if profile == 1 || profile == 3 {
                _ = try bits.bits(2)  // subsampling_x, subsampling_y
                guard try bits.bit() == 0 else { throw .invalid("VP9 reserved_zero") }
            }
        } else {
            guard profile == 1 || profile == 3 else { throw .invalid("VP9 RGB needs profile 1 or 3") }
            guard try bits.bit() == 0 else { throw .invalid("VP9 reserved_zero") }
        }
    }

    /// frame_size() (6.2.5).
    private static func frameSize(_ bits: inout BitReader) throws(ParseError) -> Resolution {
        let width = Int(try bits.bits(16)) + 1
        let height = Int(try bits.bits(16)) + 1
        return Resolution(width: width, height: height)
    }
}
