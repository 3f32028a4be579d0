import RTCBase

/// Something the driver should know (polled with `IceAgent.pollEvent()`).
public enum IceEvent: Sendable, Equatable {
    /// A local candidate to signal to the remote (host at once, srflx and relay when learned).
    case localCandidate(IceCandidate)
    case stateChanged(IceConnectionState, reason: IceStateReason)
    /// Media now goes from `local.base` to `remote.address`.
    case selectedPairChanged(local: IceCandidate, remote: IceCandidate)
    /// A role conflict (RFC 8445 7.3.1.1) switched this agent's role.
    case roleChanged(IceRole)
    /// A TURN allocation failed or ended: its relayed candidate is gone.
    case turnFailed(server: SocketAddress, reason: String)
}
