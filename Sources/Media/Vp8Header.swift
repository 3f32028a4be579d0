import RTCBase

/// The VP8 frame header (RFC 6386 9.1): a 3-byte frame tag, then, for key frames only,
/// the start code `9d 01 2a` and the 14-bit width and height (with 2-bit scaling), all
/// little-endian.
public enum Vp8Header {
    /// Key frame flag and, for key frames, the size; throws on a short or invalid header.
    public static func inspect(_ bytes: [UInt8]) throws(ParseError) -> FrameInspection {
        guard bytes.count >= 3 else { throw .truncated("VP8 frame tag") }
        let tag = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16
        let isKeyframe = tag & 1 == 0  // frame_type: 0 = key frame
        let version = tag >> 1 & 7
        let firstPartitionSize = Int(tag >> 5 & 0x7FFFF)
        guard version <= 3 else { throw .invalid("VP8 version \(version) > 3") }
        guard isKeyframe else {
            guard firstPartitionSize <= bytes.count - 3 else { throw .truncated("VP8 first partition") }
            return FrameInspection(isKeyframe: false, resolution: nil)
        }
        guard bytes.count >= 10 else { throw .truncated("VP8 key frame header") }
        guard bytes[3] == 0x9D, bytes[4] == 0x01, bytes[5] == 0x2A else { throw .invalid("VP8 start code") }
        guard firstPartitionSize <= bytes.count - 10 else { throw .truncated("VP8 first partition") }
        let width = Int(UInt16(bytes[6]) | UInt16(bytes[7]) << 8) & 0x3FFF  // top 2 bits: horizontal scale
        let height = Int(UInt16(bytes[8]) | UInt16(bytes[9]) << 8) & 0x3FFF
        guard width > 0, height > 0 else { throw .invalid("VP8 zero picture size") }
        return FrameInspection(isKeyframe: true, resolution: Resolution(width: width, height: height))
    }
}
