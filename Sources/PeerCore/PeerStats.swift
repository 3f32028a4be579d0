import RTP
import ICE
import RTCBase
import RTPSession
import SDP

/// Datagrams and packets counted and dropped, by what was wrong (never a crash).
public struct MalformedCounters: Sendable, Hashable {
    /// First byte outside every RFC 7983 range.
    public var unknownDatagrams = 0
    /// STUN or ChannelData ICE could not decode or authenticate (`IceStats.dropped`).
    public var stun = 0
    /// DTLS records dropped before OpenSSL, or datagrams before DTLS could take them.
    public var dtls = 0
    /// SRTP/SRTCP packets too short, failing authentication, or replayed.
    public var srtp = 0
    public var srtcp = 0
    /// Authenticated RTP packets that do not parse, or RTCP that does not (RtpSession).
    public var rtp = 0
    public var rtcp = 0
    /// RTP of an SSRC and payload type no receiving section expects.
    public var unknownStreams = 0
    /// Payloads the depacketizer rejected.
    public var payloads = 0

    public init() {}

    public var total: Int { unknownDatagrams + stun + dtls + srtp + srtcp + rtp + rtcp + unknownStreams + payloads }
}

/// One received RTP stream: RtpSession's RFC 3550 figures plus the assembler's frames.
public struct ReceivedStreamStats: Sendable, Equatable {
    public var mid: String
    public var codec: Codec
    public var rtp: ReceiveStreamStatistics
    public var framesCompleted: Int
    public var keyframesCompleted: Int
    /// Incomplete frames given up after waiting (METRICS.md frame loss).
    public var framesDropped: Int
    /// Of those, frames whose missing packets all arrived after they were given up.
    public var framesDroppedLate: Int
}

/// One sent RTP stream.
public struct SentStreamStats: Sendable, Equatable {
    public var mid: String
    public var codec: Codec
    public var ssrc: UInt32
    public var frames: Int
    public var counters: SendStream.Counters
    /// Added to every media timestamp this stream sends (RFC 3550 5.1).
    public var timestampOffset: UInt32
}

/// A snapshot of one peer's figures (METRICS.md: per peer and per received stream).
public struct PeerStats: Sendable {
    public var timeline: PeerTimeline
    public var failure: PeerFailure?
    public var ice: IceStats
    public var iceState: IceConnectionState
    public var dtlsRetransmissions: Int
    /// Round-trip time from RTCP reports or NACK answers, else the ICE check's.
    public var roundTripTime: Duration?
    public var received: [ReceivedStreamStats]
    public var sent: [SentStreamStats]
    public var malformed: MalformedCounters
    /// Frames `send` refused (not connected, unknown mid, codec not negotiated).
    public var framesRefused: Int
}
