import RTP
import RTCBase

/// One encoded frame to send: a video frame (VP8/VP9 frame, H.264 access unit in
/// Annex-B form) or one Opus packet.
///
/// Its own value type so PeerCore needs none of `Media`'s codec libraries; `Media`'s
/// `EncodedFrame` maps onto it field by field (see `PeerCoreTests` for the adapter).
public struct EncodedMediaFrame: Sendable, Hashable {
    public var codec: Codec
    public var bytes: [UInt8]
    public var isKeyframe: Bool
    /// In the codec's clock from the stream's start; the send stream adds its random
    /// offset (RFC 3550 5.1).
    public var rtpTimestamp: UInt32
    public var captureTime: Instant
    /// Coded size, used for the VP9 scalability structure of keyframes; 0 for audio.
    public var width: Int
    public var height: Int

    public init(
        codec: Codec, bytes: [UInt8], isKeyframe: Bool, rtpTimestamp: UInt32, captureTime: Instant,
        width: Int = 0, height: Int = 0
    ) {
        self.codec = codec
        self.bytes = bytes
        self.isKeyframe = isKeyframe
        self.rtpTimestamp = rtpTimestamp
        self.captureTime = captureTime
        self.width = width
        self.height = height
    }
}
