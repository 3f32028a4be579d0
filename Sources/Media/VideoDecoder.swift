import RTP

/// A video decoder: synchronous; a corrupted or truncated frame is a `MediaError`.
public protocol VideoDecoder: AnyObject {
    /// Decodes one encoded frame (VP8/VP9 frame, H.264 or H.265 access unit in Annex-B form,
    /// AV1 temporal unit in the low-overhead bitstream format).
    /// Returns nil when the input produced no picture (parameter sets only, hidden frame).
    func decode(_ bytes: [UInt8]) throws(MediaError) -> I420Image?
}

extension Codec {
    /// A new decoder for this codec.
    public func makeDecoder() throws(MediaError) -> any VideoDecoder {
        switch self {
        case .vp8, .vp9: return try VpxDecoder(codec: self)
        case .h264: return try H264Decoder()
        case .h265: return try H265Decoder()
        case .av1: return try Av1Decoder()
        case .opus: throw MediaError(.configuration, "opus is not a video codec")
        }
    }
}
