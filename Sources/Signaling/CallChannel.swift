import RTCBase

/// What a peer-to-peer call's signaling tells the peer, whatever carries it (a room
/// server, a direct socket).
public enum CallChannelEvent: Hashable, Sendable {
    /// The transport is up (for a room: connected, `join` sent).
    case connected
    /// In the call's meeting place (the room joined, the socket open).
    case joined
    /// The other side is there and waits for our offer.
    case partnerArrived
    case signal(P2PSignal)
    /// The other side left (`bye`).
    case partnerLeft
    /// We were turned away (a full room), in words.
    case refused(String)
    /// The signaling connection is over, with why.
    case closed(reason: String)
}

/// One way of carrying a peer-to-peer call's `P2PSignal`s, as a stream machine: the room
/// protocol (`RoomCallChannel`) or JSON lines on a TCP socket (`TCPCallChannel`). A new way
/// is one file conforming to this, and one case in the runtime's target switch.
public protocol CallChannel: StreamMachine where Event == CallChannelEvent {
    mutating func send(_ signal: P2PSignal, now: Instant)
    /// Leaves politely (the room's `leave`, a `bye`), then closes the connection.
    mutating func leave(now: Instant)
}
