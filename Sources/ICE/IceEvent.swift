import RTCBase

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

/// Why the state changed.
public enum IceStateReason: String, Sendable {
    case checksStarted = "connectivity checks started"
    case pairNominated = "a candidate pair was nominated"
    case checksFinished = "all checks finished"
    case consentMissing = "no consent response for a while"
    case consentRestored = "consent responses resumed"
    /// RFC 7675 5.1: no response for 30 seconds.
    case consentExpired = "consent expired: no response for 30 s"
    case allPairsFailed = "every candidate pair failed"
    /// Relay-only and no TURN allocation is left (refused, timed out or lost).
    case relayUnavailable = "no TURN allocation"
    case restarted = "ICE restart"
}

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

/// Which side of the pair nominates (RFC 8445 6.1.1).
public enum IceRole: String, Sendable {
    case controlling
    case controlled
}

/// A username fragment and password (RFC 8445 5.3), signalled as ice-ufrag and ice-pwd.
public struct IceCredentials: Hashable, Sendable {
    public var ufrag: String
    public var pwd: String

    public init(ufrag: String, pwd: String) {
        self.ufrag = ufrag
        self.pwd = pwd
    }

    /// Random credentials of RFC 8839 5.4 sizes (8 and 24 ice-chars) from `generator`.
    public static func random<Generator: RandomNumberGenerator>(using generator: inout Generator) -> IceCredentials {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/")
        func text(_ count: Int) -> String {
            String((0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        }
        return IceCredentials(ufrag: text(8), pwd: text(24))
    }
}
