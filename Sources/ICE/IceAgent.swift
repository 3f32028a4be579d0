import RTCBase
import STUN

/// A full ICE agent (RFC 8445) for one data stream with one component, sans-IO.
///
/// It never gathers interfaces: the driver hands it the base addresses of its sockets
/// (`addLocalHost`), and those alone become host candidates; server-reflexive and relayed
/// candidates come from STUN and TURN servers the driver names. Feed it every STUN and
/// ChannelData datagram with `handle(_:from:to:now:)`, call `handleTimeout(now:)` at
/// `pollTimeout()`, and after each call drain `pollTransmit()` and `pollEvent()`.
/// Application data goes out with `send(_:)`, which wraps it for TURN when the selected
/// local candidate is relayed.
public struct IceAgent: Sendable {
    public internal(set) var role: IceRole
    public internal(set) var localCredentials: IceCredentials
    public internal(set) var remoteCredentials: IceCredentials?
    /// ICE-CONTROLLING/ICE-CONTROLLED tie-breaker (RFC 8445 7.3.1.1).
    public let tieBreaker: UInt64
    public let options: IceAgentOptions
    public internal(set) var state: IceConnectionState = .new
    public internal(set) var stats = IceStats()
    /// Every local candidate, including host addresses kept private in relay-only mode.
    public internal(set) var localCandidates: [IceCandidate] = []
    public internal(set) var remoteCandidates: [IceCandidate] = []
    /// The remote is an ice-lite agent (RFC 8445 2.5): it never checks, so this agent is
    /// controlling and nominates.
    public internal(set) var remoteIsLite = false

    var pairs: [IceCandidatePair] = []
    /// Pairs waiting for a triggered check, first in first out (RFC 8445 6.1.4.1).
    var triggered: [Int] = []
    /// Pairs the controlling agent has decided to nominate with their next check.
    var nominationPending: Set<Int> = []
    var transactions: StunTransactions<Purpose>
    var generator: SeededGenerator
    var events: [IceEvent] = []
    @usableFromInline var transmits: [Transmit] = []
    /// Latest `now` seen, so timeouts can be "as soon as possible".
    var lastNow = Instant.zero
    var lastCheckAt: Instant?
    var firstValidAt: Instant?
    var nominationStarted = false
    var remoteEndOfCandidates = false
    /// Bumped by an ICE restart; answers to checks of an older generation are ignored.
    var generation = 0
    var selected: SelectedPath?
    var stunServers: [SocketAddress] = []
    /// One TURN allocation per configured server and base (RFC 8656).
    var turnClients: [TurnClient] = []

    /// What a STUN transaction was for.
    enum Purpose: Sendable {
        /// `asControlling`: the role the request claimed, which a 487 answer reverses.
        case check(pair: Int, nominate: Bool, asControlling: Bool, generation: Int)
        case consent
        case gather(base: SocketAddress, server: SocketAddress)
    }

    /// The selected pair and what consent freshness (RFC 7675) needs to keep checking it,
    /// kept across an ICE restart until a new pair is selected.
    struct SelectedPath: Sendable {
        var pair: Int?
        var local: IceCandidate
        var remote: IceCandidate
        var username: String
        var key: [UInt8]
        var lastResponse: Instant
        var nextConsent: Instant
        /// Pings on the pair so far (its checks, then consent checks), answers to them, and
        /// when the last went out: what the libwebrtc profile paces the next one by.
        var pings: Int
        var answers: Int
        var lastPing: Instant
        var disconnected = false
        /// The pair is nominated (libwebrtc selects a pair before nominating it).
        var nominated = false
    }

    /// An agent with its own credentials and tie-breaker (RFC 8445 5.3, 6.1.1).
    public init(role: IceRole, localCredentials: IceCredentials, tieBreaker: UInt64, options: IceAgentOptions = IceAgentOptions()) {
        self.role = role
        self.localCredentials = localCredentials
        self.tieBreaker = tieBreaker
        self.options = options
        self.generator = SeededGenerator(seed: options.seed)
        self.transactions = StunTransactions(rto: options.rto, maxTransmissions: options.maxTransmissions,
                                             lastWaitFactor: options.lastWaitFactor)
    }

    // MARK: - Candidates and credentials

    /// Makes `address` (the bound address of one of the driver's UDP sockets) a host
    /// candidate (RFC 8445 5.1.1.1) and announces it with `.localCandidate`.
    public mutating func addLocalHost(_ address: SocketAddress) {
        guard !localCandidates.contains(where: { $0.base == address && $0.type == .host }) else { return }
        let hostCount = localCandidates.filter { $0.type == .host }.count
        let preference = UInt16(clamping: 65535 - hostCount)
        let candidate = IceCandidate(foundation: IceCandidate.foundation(type: .host, base: address, server: nil),
                                     priority: IceCandidate.priority(type: .host, localPreference: preference),
                                     address: address, type: .host)
        addLocal(candidate)
    }

    /// Learns a server-reflexive candidate for every host candidate by a Binding request
    /// to the STUN server `server` (RFC 8445 5.1.1.2); each arrives as `.localCandidate`.
    public mutating func gatherServerReflexive(server: SocketAddress, now: Instant) {
        lastNow = max(lastNow, now)
        stunServers.append(server)
        for candidate in localCandidates where candidate.type == .host && candidate.address.family == server.family {
            let id = TransactionID(using: &generator)
            let request = StunMessage(method: .binding, messageClass: .request, transactionID: id)
            let transmit = Transmit(destination: server, source: candidate.base, payload: request.encode(fingerprint: true))
            transactions.start(id, purpose: .gather(base: candidate.base, server: server), transmit: transmit, now: now)
            emit(transmit)
        }
    }

    /// The remote ice-ufrag and ice-pwd from its SDP (RFC 8839 5.4).
    public mutating func setRemoteCredentials(_ credentials: IceCredentials, isLite: Bool = false) {
        remoteCredentials = credentials
        remoteIsLite = isLite
        if isLite && role != .controlling { switchRole(to: .controlling) }
    }

    /// Adds a remote candidate (from the SDP or trickled, RFC 8838) and pairs it with every
    /// local host and relay candidate of the same address family.
    /// A signalled candidate already learned as peer-reflexive takes its signalled type,
    /// foundation and priority (RFC 8838 11.1).
    public mutating func addRemoteCandidate(_ candidate: IceCandidate) {
        if let known = remoteCandidates.firstIndex(where: { $0.address == candidate.address }) {
            guard remoteCandidates[known].type == .prflx, candidate.type != .prflx else { return }
            remoteCandidates[known] = candidate
            for index in pairs.indices where pairs[index].remote == known {
                let local = localCandidates[pairs[index].local]
                pairs[index].foundation = local.foundation + ":" + candidate.foundation
                pairs[index].priority = pairPriority(local: local, remote: candidate)
            }
            return
        }
        remoteCandidates.append(candidate)
        let remoteIndex = remoteCandidates.count - 1
        for localIndex in localCandidates.indices { addPair(local: localIndex, remote: remoteIndex) }
    }

    /// The remote signalled end-of-candidates (RFC 8838 8.2): once every pair has failed,
    /// the agent fails instead of waiting for more.
    public mutating func endOfRemoteCandidates() {
        remoteEndOfCandidates = true
        updateState()
    }

    /// ICE restart (RFC 8445 9): new local credentials; remote credentials, remote
    /// candidates and every pair start over. The selected pair keeps carrying media (and
    /// consent checks) until a new one is selected. Local candidates are announced again.
    public mutating func restart(localCredentials: IceCredentials, now: Instant) {
        lastNow = max(lastNow, now)
        self.localCredentials = localCredentials
        remoteCredentials = nil
        remoteCandidates = []
        pairs = []
        triggered = []
        nominationPending = []
        generation += 1
        transactions.cancel { if case .check = $0 { true } else { false } }
        firstValidAt = nil
        nominationStarted = false
        remoteEndOfCandidates = false
        remoteIsLite = false
        selected?.pair = nil
        if selected == nil { setState(.new, .restarted) }
        events.append(contentsOf: localCandidates.map { .localCandidate($0) })
    }

    /// The local candidates to signal (those announced with `.localCandidate`).
    public var signalledCandidates: [IceCandidate] {
        localCandidates.filter { !options.relayOnly || $0.type == .relay }
    }

    /// The pair media goes over (from `local.base` to `remote.address`; `send(_:)` takes
    /// care of relayed candidates).
    public var selectedPair: (local: IceCandidate, remote: IceCandidate)? {
        selected.map { ($0.local, $0.remote) }
    }

    /// Whether a pair is selected, without copying its candidates (asked per datagram).
    public var hasSelectedPair: Bool { selected != nil }

    // MARK: - Polling

    /// Whether `pollTransmit()` has a datagram, asked without a mutating call (inlined, it
    /// reads the one field where the agent lies).
    @inlinable public var hasTransmit: Bool { !transmits.isEmpty }

    /// The next datagram to send, from `source` (a local base) to `destination`.
    public mutating func pollTransmit() -> Transmit? {
        transmits.isEmpty ? nil : transmits.removeFirst()
    }

    /// The next thing to report.
    public mutating func pollEvent() -> IceEvent? {
        events.isEmpty ? nil : events.removeFirst()
    }

    /// When `handleTimeout(now:)` must run next; nil when nothing is scheduled.
    public func pollTimeout() -> Instant? {
        var agent = self
        return agent.pollTimeoutInPlace()
    }

    /// `pollTimeout()` for a caller that holds the agent in a class (a `Peer`, after every
    /// datagram): being mutating, it reads the agent where it lies, and it passes no closure
    /// that captures the agent, either of which copied the agent whole (840 bytes, every
    /// array and string retained), 2 % of a player worker through SRS in `perf`.
    public mutating func pollTimeoutInPlace() -> Instant? {
        var soonest = transactions.nextDeadline
        func consider(_ instant: Instant?) {
            guard let instant else { return }
            soonest = min(soonest ?? instant, instant)
        }
        if hasCheckToSend() {
            consider(max(lastNow, (lastCheckAt ?? lastNow) + options.ta))
            if lastCheckAt == nil { consider(lastNow) }
        }
        for index in turnClients.indices { consider(turnClients[index].pollTimeout()) }
        if options.profile == .rfc8445, role == .controlling, !options.aggressiveNomination, !nominationStarted,
           let firstValidAt {
            consider(firstValidAt + options.nominationDelay)
        }
        if state != .failed, let lastResponse = selected?.lastResponse {
            consider(selected?.nextConsent)
            consider(lastResponse + options.consentTimeout)
            if selected?.disconnected == false { consider(lastResponse + options.disconnectedAfter) }
        }
        return soonest
    }

    // MARK: - Internals shared by the extensions

    mutating func addLocal(_ candidate: IceCandidate) {
        localCandidates.append(candidate)
        // Relay-only: host and reflexive candidates stay private (they remain TURN bases).
        guard !options.relayOnly || candidate.type == .relay else { return }
        events.append(.localCandidate(candidate))
        guard candidate.type == .host || candidate.type == .relay else { return }
        let localIndex = localCandidates.count - 1
        for remoteIndex in remoteCandidates.indices { addPair(local: localIndex, remote: remoteIndex) }
    }

    /// Adds a pair (RFC 8445 6.1.2): same address family, reflexive local candidates left
    /// out (their base is already paired, 6.1.2.4), at most 100 pairs (6.1.2.5). A pair
    /// starts Waiting unless another of its foundation is already being checked (RFC 8838 10).
    @discardableResult
    mutating func addPair(local: Int, remote: Int) -> Int? {
        let localCandidate = localCandidates[local]
        let remoteCandidate = remoteCandidates[remote]
        guard localCandidate.type == .relay || (localCandidate.type == .host && !options.relayOnly),
              localCandidate.address.family == remoteCandidate.address.family, pairs.count < 100
        else { return nil }
        if let existing = pairs.firstIndex(where: { $0.local == local && $0.remote == remote }) { return existing }
        var pair = IceCandidatePair(local: local, remote: remote,
                                    foundation: localCandidate.foundation + ":" + remoteCandidate.foundation)
        pair.priority = pairPriority(local: localCandidate, remote: remoteCandidate)
        let busy = pairs.contains { $0.foundation == pair.foundation && ($0.state == .waiting || $0.state == .inProgress) }
        pair.state = busy ? .frozen : .waiting
        pairs.append(pair)
        if localCandidate.type == .relay { turnPermission(relay: localCandidate.address, peer: remoteCandidate.address) }
        return pairs.count - 1
    }

    func pairPriority(local: IceCandidate, remote: IceCandidate) -> UInt64 {
        role == .controlling
            ? IceCandidatePair.priority(controlling: local.priority, controlled: remote.priority)
            : IceCandidatePair.priority(controlling: remote.priority, controlled: local.priority)
    }

    /// Changes role after a conflict (RFC 8445 7.3.1.1, 7.2.5.1) and recomputes pair priorities.
    mutating func switchRole(to newRole: IceRole) {
        guard role != newRole else { return }
        role = newRole
        for index in pairs.indices {
            pairs[index].priority = pairPriority(local: localCandidates[pairs[index].local],
                                                 remote: remoteCandidates[pairs[index].remote])
        }
        events.append(.roleChanged(newRole))
    }

    mutating func setState(_ newState: IceConnectionState, _ reason: IceStateReason) {
        guard state != newState else { return }
        state = newState
        events.append(.stateChanged(newState, reason: reason))
    }
}
