import RTP
import RTCBase
import SDP

/// A complete frame reassembled from received RTP packets (`PeerEvent.frame`).
public struct ReceivedFrame: Sendable, Hashable {
    /// The media section it arrived on.
    public var mid: String
    /// The SSRC of the stream it arrived on (RFC 3550 8; the section's remote SSRC).
    public var ssrc: UInt32
    public var kind: MediaKind
    public var codec: Codec
    /// The codec bytes (Annex-B with 4-byte start codes for H.264); empty for a frame that
    /// is not a keyframe when `PeerConfiguration.deltaFrameBytes` is false.
    public var data: [UInt8]
    public var isKeyframe: Bool
    /// The RTP timestamp of its packets as sent (the sender's random offset included).
    public var rtpTimestamp: UInt32
    /// Arrival of its first and last packet; the last ends the frame for latency
    /// (METRICS.md "End-to-end latency").
    public var firstArrival: Instant
    public var lastArrival: Instant

    public init(
        mid: String, ssrc: UInt32, kind: MediaKind, codec: Codec, data: [UInt8], isKeyframe: Bool, rtpTimestamp: UInt32,
        firstArrival: Instant, lastArrival: Instant
    ) {
        self.mid = mid
        self.ssrc = ssrc
        self.kind = kind
        self.codec = codec
        self.data = data
        self.isKeyframe = isKeyframe
        self.rtpTimestamp = rtpTimestamp
        self.firstArrival = firstArrival
        self.lastArrival = lastArrival
    }
}
