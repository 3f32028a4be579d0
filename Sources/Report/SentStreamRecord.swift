/// One sent stream's figures: what this peer handed to the network, so a receiver's
/// counts (a browser's `framesReceived`, a server's) can be checked against them.
public struct SentStreamRecord: Codable, Equatable, Sendable {
    public var kind: String
    public var codec: String
    public var ssrc: UInt32
    /// Media packets sent, retransmissions not included (RFC 3550 6.4.1 sender's packet count).
    public var packetsSent: Int
    public var framesSent: Int
    /// Generic NACK feedback messages received for this stream (RFC 4585 6.2.1).
    public var nacksReceived: Int
    public var retransmissions: Int
    /// Retransmissions sent on the RTX stream (RFC 4588); the rest were plain resends.
    public var rtxRetransmissions: Int?
    /// The receiver kept NACKing packets already resent as RTX: RTX recovered nothing
    /// (`media.video.rtx`; with `auto` later resends were plain).
    public var rtxIneffective: Bool?
    /// How the last retransmission went, "rtx" or "plain"; nil without any.
    public var recovery: String?

    public init(kind: String, codec: String, ssrc: UInt32, packetsSent: Int, framesSent: Int, nacksReceived: Int, retransmissions: Int,
                rtxRetransmissions: Int? = nil, rtxIneffective: Bool? = nil, recovery: String? = nil) {
        self.kind = kind
        self.codec = codec
        self.ssrc = ssrc
        self.packetsSent = packetsSent
        self.framesSent = framesSent
        self.nacksReceived = nacksReceived
        self.retransmissions = retransmissions
        self.rtxRetransmissions = rtxRetransmissions
        self.rtxIneffective = rtxIneffective
        self.recovery = recovery
    }
}
