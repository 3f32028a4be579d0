/// Counters of an `IceAgent`, for reports and tests.
public struct IceStats: Sendable, Equatable {
    /// Connectivity-check transmissions, retransmissions included.
    public var checksSent = 0
    /// Consent-freshness requests sent (RFC 7675), retransmissions included.
    public var consentRequestsSent = 0
    /// Authenticated success responses to our checks and consent requests.
    public var responsesReceived = 0
    /// Binding requests from the remote that passed authentication.
    public var requestsReceived = 0
    /// Datagrams that did not decode as STUN, or failed authentication: counted and dropped.
    public var dropped = 0
    /// STUN round-trip time of the selected pair (last check answered at first try).
    public var selectedPairRtt: Duration?
    /// Type of the local side of the selected pair as the remote saw it.
    public var selectedLocalType: IceCandidateType?
    public var selectedRemoteType: IceCandidateType?

    public init() {}
}
