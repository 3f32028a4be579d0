/// ICE connection states, as RTCIceConnectionState names them (RFC 8445 6.1.3, 8.1).
public enum IceConnectionState: String, Sendable {
    case new
    case checking
    /// A pair is selected: media can flow.
    case connected
    /// Nomination done and every check finished (end-of-candidates was signalled).
    case completed
    /// Consent has had no response for `Options.disconnectedAfter`; it may come back.
    case disconnected
    /// Terminal until an ICE restart.
    case failed
}
