import RTCBase

/// What a look at an encoded frame's headers tells, without decoding it.
public struct FrameInspection: Hashable, Sendable {
    /// VP8/VP9 key frame, H.264 access unit with an IDR slice.
    public var isKeyframe: Bool
    /// The picture size when the frame states it (keyframes; VP9 intra-only frames; H.264
    /// units carrying an SPS). A delta frame inherits the size of its keyframe.
    public var resolution: Resolution?
    /// H.264 only: the frame-identity SEI, when present.
    public var stamp: FrameStamp?

    public init(isKeyframe: Bool, resolution: Resolution?, stamp: FrameStamp? = nil) {
        self.isKeyframe = isKeyframe
        self.resolution = resolution
        self.stamp = stamp
    }
}

/// Bitstream inspection for the receive path, where full decoding is too dear: keyframes
/// and resolution from the VP8 frame header (RFC 6386 9.1), the VP9 uncompressed header
/// (VP9 bitstream spec 6.2) and the H.264 SPS (ITU-T H.264 7.3.2.1.1). Garbage throws
/// `ParseError`; it never traps.
public enum BitstreamInspector {
    /// Inspects one encoded frame (an H.264 access unit in Annex-B form).
    public static func inspect(_ bytes: [UInt8], codec: MediaCodec) throws(ParseError) -> FrameInspection {
        switch codec {
        case .vp8: return try Vp8Header.inspect(bytes)
        case .vp9: return try Vp9Header.inspect(bytes)
        case .h264: return try H264Inspector.inspect(accessUnit: bytes)
        case .opus: throw ParseError(.unsupported, "opus packets carry no picture")
        }
    }
}
