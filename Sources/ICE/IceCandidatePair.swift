import RTCBase

/// A pair on the check list (RFC 8445 6.1.2) with its check state (6.1.2.6).
struct IceCandidatePair: Sendable {
    enum State: Sendable { case frozen, waiting, inProgress, succeeded, failed }

    /// Index into the agent's local candidates (host or relay: reflexive ones are replaced
    /// by their base, 6.1.2.4).
    var local: Int
    /// Index into the agent's remote candidates.
    var remote: Int
    var foundation: String
    var priority: UInt64 = 0
    var state: State = .frozen
    /// A check on it succeeded with symmetric addresses (7.2.5.3.2).
    var valid = false
    var nominated = false
    /// The controlled agent saw USE-CANDIDATE before its own check succeeded (7.3.1.5).
    var nominateOnSuccess = false
    /// The type of the local candidate the remote saw (host, srflx or prflx), from the
    /// XOR-MAPPED-ADDRESS of the success response.
    var mappedType: IceCandidateType?
    /// When the last check on it went out (libwebrtc pings the least recently pinged first).
    var lastCheckSent: Instant?
    /// Checks sent on it and answers to them (libwebrtc's num_pings_sent and rtt_samples,
    /// which pace the pings once it is selected).
    var checksSent = 0
    var answers = 0
    /// Round-trip time of the last check or consent request answered without retransmission.
    var rtt: Duration?

    /// Pair priority (RFC 8445 6.1.2.3): 2^32 * min(G, D) + 2 * max(G, D) + (G > D ? 1 : 0),
    /// G being the controlling agent's candidate priority and D the controlled agent's.
    static func priority(controlling: UInt32, controlled: UInt32) -> UInt64 {
        let g = UInt64(controlling)
        let d = UInt64(controlled)
        return (min(g, d) << 32) + 2 * max(g, d) + (g > d ? 1 : 0)
    }
}
