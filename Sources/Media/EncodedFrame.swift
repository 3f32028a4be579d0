import RTP
import RTCBase

/// One encoded video frame or Opus packet, ready for a packetizer, with the identity of
/// the raw frame it came from.
///
/// Shared read-only by every publisher of the same encoder (encode once, send many): each
/// publisher adds its own SSRC, sequence numbers and timestamp offset.
public struct EncodedFrame: Hashable, Sendable {
    public var codec: Codec
    /// VP8/VP9: one frame as libvpx wrote it. H.264: one access unit in Annex-B form (4-byte
    /// start codes; SPS and PPS before each IDR; the frame-identity SEI before the first
    /// slice). Opus: one 20 ms packet.
    public var bytes: [UInt8]
    /// A keyframe (VP8/VP9 key frame, H.264 IDR); always true for Opus.
    public var isKeyframe: Bool
    /// The coded picture size; 0 for audio.
    public var width: Int
    public var height: Int
    /// The index of the raw frame.
    public var index: Int
    public var captureTime: Instant
    /// In the codec's RTP clock (`Codec.clockRate`), derived from the index: see
    /// `RtpTimestamps`.
    public var rtpTimestamp: UInt32

    public init(codec: Codec, bytes: [UInt8], isKeyframe: Bool, width: Int, height: Int, index: Int,
                captureTime: Instant, rtpTimestamp: UInt32) {
        self.codec = codec
        self.bytes = bytes
        self.isKeyframe = isKeyframe
        self.width = width
        self.height = height
        self.index = index
        self.captureTime = captureTime
        self.rtpTimestamp = rtpTimestamp
    }

    public var resolution: Resolution { Resolution(width: width, height: height) }
}
