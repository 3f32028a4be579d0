import RTCBase
import STUN

/// What a `TurnClient` reports (polled with `pollEvent()`).
public enum TurnEvent: Sendable, Equatable {
    /// The allocation exists: peers reach us at `relayed`; the server saw us at `mapped`.
    case allocated(relayed: SocketAddress, mapped: SocketAddress?, lifetime: UInt32)
    /// A Refresh succeeded (RFC 8656 7.4); lifetime 0 ends the allocation.
    case refreshed(lifetime: UInt32)
    case permissionCreated(SocketAddress)
    case channelBound(peer: SocketAddress, channel: UInt16)
    /// A request was refused or timed out.
    case requestFailed(method: StunMethod, error: StunErrorCode?)
    case failed(String)
    case deallocated
}
