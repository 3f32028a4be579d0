/// Tuning of an `IceAgent`; the defaults follow the profile (libwebrtc's by default) and
/// the RFCs.
public struct IceAgentOptions: Sendable {
    /// Whose check pacing, retransmission, nomination and selection the agent follows.
    public var profile: IceProfile = .libwebrtc
    /// Pacing of connectivity checks (RFC 8445 14.2): one every Ta; the profile's unless set.
    public var ta: Duration {
        get { taOverride ?? profile.defaultTa }
        set { taOverride = newValue }
    }
    private var taOverride: Duration?
    /// libwebrtc profile: a pair whose checks get no answer for this long fails
    /// (libwebrtc's CONNECTION_WRITE_TIMEOUT, 15 s); each check waits this long for its answer.
    public var unansweredPairTimeout: Duration = .seconds(15)
    /// First retransmission timeout of a request (RFC 8489 6.2.1, RFC 8445 14.3), doubled
    /// after each retransmission.
    public var rto: Duration = .milliseconds(500)
    /// Transmissions of a request before giving up (RFC 8489 Rc, default 7).
    public var maxTransmissions: Int = 7
    /// After the last transmission, wait `lastWaitFactor` times the first RTO (RFC 8489 Rm).
    public var lastWaitFactor: Int = 16
    /// Aggressive nomination: every check of the controlling agent carries USE-CANDIDATE
    /// (RFC 5245 8.1.1.2). Otherwise the profile's: semi-aggressive (libwebrtc) or regular
    /// nomination (RFC 8445 8.1.1).
    public var aggressiveNomination = false
    /// rfc8445 profile: regular nomination waits at most this long after the first valid
    /// pair for checks of higher-priority pairs to finish.
    public var nominationDelay: Duration = .milliseconds(500)
    /// Consent checks are sent every `consentInterval` +- 20 % (RFC 7675 5.1).
    public var consentInterval: Duration = .seconds(5)
    /// Consent is lost after this long without a response (RFC 7675 5.1).
    public var consentTimeout: Duration = .seconds(30)
    /// `disconnected` after this long without a consent response.
    public var disconnectedAfter: Duration = .seconds(10)
    /// Relay-only (the "relay" ICE transport policy): only TURN relayed candidates are
    /// announced and paired; host addresses serve as TURN client sockets.
    public var relayOnly = false
    /// Seed of the generator behind transaction IDs and consent jitter.
    public var seed: UInt64 = 1

    public init() {}
}
