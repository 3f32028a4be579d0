/// One data channel as one side of a call saw it (`PeerRecord.dataChannels`, a line of
/// `peers.ndjson` per peer): what it sent and received, measured from each message's
/// sequence number and send time (docs/metrics.md, the `dc_` figures).
public struct DataChannelRecord: Codable, Equatable, Sendable {
    public var label: String
    /// The SCTP stream id (RFC 8831 6.5); nil when it never opened.
    public var streamId: Int?
    public var ordered: Bool
    /// False for a partially reliable channel (`max_retransmits`, `max_packet_life_ms`).
    public var reliable: Bool
    /// `dc_open_ms`: from DTLS done to the channel open; nil when it never opened.
    public var openMs: Double?
    public var messagesSent: Int
    public var messagesReceived: Int
    /// Sequence numbers missing below the highest received.
    public var messagesLost: Int
    /// Messages that came after one with a higher sequence number.
    public var reordered: Int
    /// Messages too short to carry a sequence number and send time, counted and dropped
    /// (the other side is not sending this run's messages).
    public var unreadable: Int
    /// True when what it received were its own messages returned by the other side (the
    /// echo's round trip: latency is half of it, loss is both ways').
    public var echoed: Bool
    /// Latency of what it received (one way, or half the round trip when `echoed`).
    public var latencyMeanMs: Double?
    public var latencyMaxMs: Double?
    public var throughputKbps: Double?
    /// Whether the run's `dc_` figures include this side's receive figures: an echo's
    /// return is left out when rtcswarm measured the one-way trip at the other side.
    public var inFigures: Bool

    public init(label: String, streamId: Int?, ordered: Bool, reliable: Bool, openMs: Double?, messagesSent: Int,
                messagesReceived: Int, messagesLost: Int, reordered: Int, unreadable: Int, echoed: Bool, latencyMeanMs: Double?,
                latencyMaxMs: Double?, throughputKbps: Double?, inFigures: Bool) {
        self.label = label
        self.streamId = streamId
        self.ordered = ordered
        self.reliable = reliable
        self.openMs = openMs
        self.messagesSent = messagesSent
        self.messagesReceived = messagesReceived
        self.messagesLost = messagesLost
        self.reordered = reordered
        self.unreadable = unreadable
        self.echoed = echoed
        self.latencyMeanMs = latencyMeanMs
        self.latencyMaxMs = latencyMaxMs
        self.throughputKbps = throughputKbps
        self.inFigures = inFigures
    }

    /// `dc_loss_pct`: of the sequence numbers up to the highest received, the share
    /// missing; nil before any arrived.
    public var lossPct: Double? {
        let expected = messagesReceived + messagesLost
        return expected > 0 ? Double(messagesLost) * 100 / Double(expected) : nil
    }
}
