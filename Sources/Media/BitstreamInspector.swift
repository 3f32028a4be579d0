import RTP
import RTCBase

/// Bitstream inspection for the receive path, where full decoding is too dear: keyframes
/// and resolution from the VP8 frame header (RFC 6386 9.1), the VP9 uncompressed header
/// (VP9 bitstream spec 6.2), the H.264 SPS (ITU-T H.264 7.3.2.1.1) and the H.265 SPS
/// (ITU-T H.265 7.3.2.2.1) and the AV1 sequence header (AV1 5.5). Garbage throws
/// `ParseError`; it never traps.
public enum BitstreamInspector {
    /// Inspects one encoded frame (an H.264 or H.265 access unit in Annex-B form, an AV1
    /// temporal unit in the low-overhead format).
    public static func inspect(_ bytes: [UInt8], codec: Codec) throws(ParseError) -> FrameInspection {
        switch codec {
        case .vp8: return try Vp8Header.inspect(bytes)
        case .vp9: return try Vp9Header.inspect(bytes)
        case .h264: return try H264Inspector.inspect(accessUnit: bytes)
        case .h265: return try H265Inspector.inspect(accessUnit: bytes)
        case .av1: return try Av1Inspector.inspect(temporalUnit: bytes)
        case .opus: throw ParseError(.unsupported, "opus packets carry no picture")
        }
    }
}
