/// What an association tells its owner.
public enum SctpEvent: Hashable, Sendable {
    /// COOKIE ECHO / COOKIE ACK done: DATA may flow (RFC 9260 5.1).
    case associationUp
    /// A channel can carry messages: the peer acked our DATA_CHANNEL_OPEN, we acked its
    /// open (RFC 8832 6), or a negotiated channel's association came up.
    case channelOpen(DataChannel)
    case message(DataChannelMessage)
    case closed(SctpCloseReason)
}

/// One data channel as both sides see it.
public struct DataChannel: Hashable, Sendable {
    /// The SCTP stream id it uses in both directions (RFC 8831 6.5).
    public var id: UInt16
    public var options: DataChannelOptions

    public init(id: UInt16, options: DataChannelOptions) {
        self.id = id
        self.options = options
    }
}

/// One message received on a channel; `isString` from its PPID (RFC 8831 8).
public struct DataChannelMessage: Hashable, Sendable {
    public var channel: UInt16
    public var bytes: [UInt8]
    public var isString: Bool

    public init(channel: UInt16, bytes: [UInt8], isString: Bool) {
        self.channel = channel
        self.bytes = bytes
        self.isString = isString
    }
}

public enum SctpCloseReason: Hashable, Sendable {
    /// SHUTDOWN completed (RFC 9260 9.2).
    case shutdown
    /// The peer sent ABORT (RFC 9260 9.1).
    case abortedByPeer
    /// We aborted: `close(now:)` with abort, or too many retransmissions (RFC 9260 8.1, 8.2).
    case aborted(String)
}
