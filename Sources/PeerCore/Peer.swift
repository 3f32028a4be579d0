import RTP
import DTLS
import ICE
import RTCBase
import RTPSession
import SCTP
import SDP
import SRTP

/// One WebRTC peer connection as a sans-IO state machine: offer/answer (JSEP RFC 9429),
/// ICE (RFC 8445), DTLS-SRTP (RFC 5764), RTP/RTCP with NACK and keyframe requests, all
/// over one UDP 5-tuple (BUNDLE RFC 9143, rtcp-mux RFC 5761), demultiplexed by the first
/// byte of each datagram (RFC 7983).
///
/// The driver owns the socket and the clock:
///
///     peer.handle(borrowed: bytes, from: remote, to: local, now: now)   // DatagramMachine
///     peer.handleTimeout(now: now)                  // at pollTimeout()
///     while let transmit = peer.pollTransmit() { socket.send(transmit) }
///     while let event = peer.pollEvent() { ... }
///
/// A final class, not a struct: it owns a `DtlsEndpoint` and two `SrtpContext`s, which
/// are OpenSSL-backed reference types, so a copy of a struct would share (and corrupt)
/// their state. One owner drives it on one thread.
public final class Peer {
    public let configuration: PeerConfiguration
    public internal(set) var timeline: PeerTimeline
    public internal(set) var failure: PeerFailure?
    public internal(set) var isConnected = false
    public internal(set) var isClosed = false
    /// The descriptions as text. Parsed models are kept only until negotiation is done
    /// (a parsed description holds about 22 KB, a connected peer should not).
    public internal(set) var localDescription: String?
    public internal(set) var remoteDescription: String?
    /// The latest ICE restart (`Peer+IceRestart.swift`), if there was one.
    public internal(set) var iceRestart: IceRestart?
    /// The offer (ours or the remote's) until the answer is applied or created.
    var offerModel: SessionDescription?
    /// Every STUN/TURN server answered (or the gathering deadline passed).
    public internal(set) var isGatheringComplete: Bool

    /// Every change to the agent goes through this property and forgets `iceDeadline`
    /// (the observer reads no `oldValue`, so mutations stay in place, SE-0268).
    var ice: IceAgent { didSet { iceDeadline = nil } }
    /// ICE's answer to `pollTimeoutInPlace()` since the agent last changed. An RTP packet
    /// gives ICE nothing to do, so the packets between two of its checks reuse one answer
    /// (working it out was 640 instructions a packet, `Benchmarks peer` under callgrind).
    private var iceDeadline: Instant??
    var dtls: DtlsEndpoint?
    /// The data channels' SCTP association, when the answer accepted a data channel section.
    var sctp: SctpAssociation?
    /// Whether offer and answer agreed on a data channel section (`sctp` exists): asked
    /// after every datagram, where comparing `sctp` with nil copied the whole association
    /// (1 % of a player's CPU through SRS).
    public internal(set) var dataChannelsNegotiated = false
    /// DTLS datagrams that came before the DTLS server could answer them: before the remote
    /// description said who is client, or before ICE had a usable pair.
    var earlyDtls: [[UInt8]] = []
    var srtpOut: SrtpContext?
    var srtpIn: SrtpContext?
    var rtp: RtpSession
    var media: [MediaSection] = []
    /// Local senders by transceiver index (SSRCs, msid), fixed at creation.
    let senders: [Int: SenderDescription]
    /// Offered section mid -> local transceiver index (answerer).
    var assignments: [String: Int] = [:]
    var generator: SeededGenerator
    let sessionID: String
    var events = FIFO<PeerEvent>()
    var malformed = MalformedCounters()
    var framesRefused = 0
    var pendingGathers: Int
    let gatheringDeadline: Instant
    var nextKeyframeRetry: Instant?

    /// The longest a STUN or TURN server may take before gathering counts as complete.
    static let gatheringTimeout: Duration = .seconds(3)
    /// How long a frame of a stream without NACK (audio) waits for an older one that
    /// may only be reordered.
    static let reorderWait: Duration = .milliseconds(20)
    /// The longest a frame of a NACKed stream waits for an older incomplete one, however
    /// long resends have taken (a browser's jitter buffer stops about there too).
    static let maxResendWait: Duration = .milliseconds(500)
    /// Keyframe requests repeat this often while a video stream has none (RtpSession
    /// also spaces them by the round-trip time).
    static let keyframeRetryInterval: Duration = .milliseconds(300)

    /// A peer started at `now`: its host candidates are the configured local addresses,
    /// and gathering from the STUN/TURN servers starts at once.
    /// - Throws: `PeerError` for a configuration no description can be built from (no
    ///   transceiver, a repeated mid, a codec PeerCore cannot packetize, no address).
    public init(configuration: PeerConfiguration, now: Instant) throws(PeerError) {
        try Self.validate(configuration)
        self.configuration = configuration
        timeline = PeerTimeline(start: now)
        var generator = SeededGenerator(seed: SeededGenerator.mixing(configuration.seed, configuration.role == .offerer ? 1 : 2))
        var options = configuration.iceOptions
        options.seed = generator.next()
        options.relayOnly = configuration.relayOnly
        ice = IceAgent(
            role: configuration.role == .offerer ? .controlling : .controlled,
            localCredentials: .random(using: &generator), tieBreaker: generator.next(), options: options)
        let cname = IceCredentials.random(using: &generator).pwd
        let streamID = IceCredentials.random(using: &generator).ufrag
        var senders: [Int: SenderDescription] = [:]
        for (index, transceiver) in configuration.transceivers.enumerated() where transceiver.direction.sends {
            senders[index] = SenderDescription(
                ssrc: UInt32.random(in: 1...UInt32.max, using: &generator),
                rtxSSRC: UInt32.random(in: 1...UInt32.max, using: &generator), cname: cname, streamID: streamID,
                trackID: "\(transceiver.kind)-\(transceiver.mid)")
        }
        self.senders = senders
        sessionID = TransportDescription.randomSessionID(using: &generator)
        rtp = RtpSession(
            configuration: .init(cname: cname, seed: generator.next(), feedbackSsrc: UInt32.random(in: 1...UInt32.max, using: &generator)),
            now: now)
        self.generator = generator
        pendingGathers = configuration.iceServers.count * configuration.localAddresses.count
        isGatheringComplete = pendingGathers == 0
        gatheringDeadline = now + Self.gatheringTimeout
        for address in configuration.localAddresses { ice.addLocalHost(address) }
        for server in configuration.iceServers {
            for address in configuration.localAddresses {
                switch server {
                case .stun(let server): ice.gatherServerReflexive(server: server, now: now)
                case .turn(let server, let username, let password):
                    ice.addTurnServer(server, username: username, password: password, from: address, now: now)
                }
            }
        }
        flush(now: now)
    }

    private static func validate(_ configuration: PeerConfiguration) throws(PeerError) {
        guard !configuration.transceivers.isEmpty || configuration.dataChannels else {
            throw PeerError("nothing to negotiate: add audio, video or data channels")
        }
        guard !configuration.localAddresses.isEmpty else { throw PeerError("no local address: give the socket's bound address") }
        var mids: Set<String> = []
        for transceiver in configuration.transceivers {
            guard mids.insert(transceiver.mid).inserted else { throw PeerError("mid \(transceiver.mid) is used twice") }
            guard transceiver.kind == .audio || transceiver.kind == .video else {
                throw PeerError("transceiver \(transceiver.mid) is \(transceiver.kind): only audio and video are supported")
            }
            let codecs = transceiver.codecs.filter { !$0.codec.isRTX }
            guard !codecs.isEmpty else { throw PeerError("transceiver \(transceiver.mid) has no codec") }
            for codec in codecs where Codec(encodingName: codec.name) == nil {
                throw PeerError("codec \(codec.name) of \(transceiver.mid) cannot be packetized (VP8, VP9, H264, H265, AV1, opus)")
            }
        }
    }

    // MARK: - Inspection

    /// The negotiated media sections, in description order.
    public var sections: [NegotiatedSection] { media.map(\.info) }
    public var iceRole: IceRole { ice.role }
    public var iceState: IceConnectionState { ice.state }
    /// Known once the remote description is applied (RFC 8842 5.3: active is the client).
    public var dtlsRole: DtlsRole? { dtls?.role }
    public var remoteCandidates: [IceCandidate] { ice.remoteCandidates }
    public var selectedPair: (local: IceCandidate, remote: IceCandidate)? { ice.selectedPair }
    /// Until ICE and DTLS are up (and again through an ICE restart or a lost connection),
    /// and for as long as data channels run, the peer's figures time round trips (setup
    /// phases, message delivery), so its datagrams must be read as they come.
    public var needsPromptWakeups: Bool {
        guard isConnected, !dataChannelsNegotiated else { return true }
        return ice.state != .connected && ice.state != .completed
    }

    // MARK: - Polling

    /// The next datagram for the socket bound to `transmit.source`.
    /// Asks the agent first without a mutating call, which would forget `iceDeadline`.
    public func pollTransmit() -> Transmit? { ice.hasTransmit ? ice.pollTransmit() : nil }

    public func pollEvent() -> PeerEvent? { events.popFirst() }

    /// When `handleTimeout(now:)` is due next; nil when nothing is scheduled.
    public func pollTimeout() -> Instant? { pollTimeoutWithOwner()?.at }

    /// The soonest deadline and which part asked for it (for debugging stalls).
    public func pollTimeoutWithOwner() -> (at: Instant, owner: PeerTimer)? {
        guard !isClosed else { return nil }
        // Asked after every wake-up of the peer's socket: the parts are read in place (a
        // nested function capturing the result made Swift copy the ICE agent and the RTP
        // session for every call).
        var soonest: (at: Instant, owner: PeerTimer)?
        let never = Instant(nanoseconds: .max)
        // The ICE agent and the RTP session are read in place: a plain call copied each
        // whole (arrays and dictionaries retained one by one) once per socket wake-up, a
        // tenth of a player's CPU in `perf`, and so did one through a pointer's pointee.
        if let at = rememberedIceDeadline() { soonest = (at, .ice) }
        if let at = dtls?.pollTimeout(), at < soonest?.at ?? never { soonest = (at, .dtls) }
        if dataChannelsNegotiated, let at = sctp?.pollTimeout(), at < soonest?.at ?? never { soonest = (at, .sctp) }
        if srtpOut != nil, let at = rtp.pollTimeoutInPlace(), at < soonest?.at ?? never {
            soonest = (at, .rtpSession)
        }
        for index in media.indices {
            if let at = media[index].assembler?.pollTimeout(), at < soonest?.at ?? never {
                soonest = (at, .frameAssembler(mid: media[index].info.mid))
            }
        }
        if !isGatheringComplete, gatheringDeadline < soonest?.at ?? never { soonest = (gatheringDeadline, .gathering) }
        if let at = nextKeyframeRetry, at < soonest?.at ?? never { soonest = (at, .keyframeRequest) }
        return soonest
    }

    /// ICE's deadline, worked out only when the agent changed since it was last asked.
    private func rememberedIceDeadline() -> Instant? {
        if let remembered = iceDeadline { return remembered }
        let deadline = ice.pollTimeoutInPlace()
        iceDeadline = .some(deadline)
        return deadline
    }

    /// Runs every part whose deadline has come.
    public func handleTimeout(now: Instant) {
        guard !isClosed else { return }
        ice.handleTimeout(now: now)
        dtls?.handleTimeout(now: now)
        if dataChannelsNegotiated, let due = sctp?.pollTimeout(), due <= now { sctp?.handleTimeout(now: now) }
        if srtpOut != nil { rtp.handleTimeout(now: now) }
        for index in media.indices where media[index].assembler?.pollTimeout().map({ $0 <= now }) ?? false {
            media[index].assembler?.handleTimeout(now: now)
            drainFrames(index, now: now)
        }
        if !isGatheringComplete, now >= gatheringDeadline { completeGathering() }
        if let retry = nextKeyframeRetry, now >= retry { retryKeyframeRequests(now: now) }
        flush(now: now)
    }

    /// Ends the connection: DTLS close_notify (RFC 5246 7.2.1; SRS ends a session only on
    /// it or a 30 s STUN timeout), TURN allocations released, ICE stopped; `.closed`.
    public func close(now: Instant) {
        guard !isClosed else { return }
        dtls?.close()
        drainDtls(now: now)
        finishClosing(now: now)
    }

    /// Stops ICE (releasing TURN allocations) and reports `.closed`, once.
    func finishClosing(now: Instant) {
        guard !isClosed else { return }
        ice.close(now: now)
        isClosed = true
        isConnected = false
        events.append(.closed)
    }

    func fail(_ phase: PeerPhase, _ reason: String) {
        guard failure == nil else { return }
        let failure = PeerFailure(phase: phase, reason: reason)
        self.failure = failure
        events.append(.failed(failure))
    }
}

/// The part of a `Peer` that asked for the next timeout.
public enum PeerTimer: Sendable, Hashable {
    case ice, dtls, sctp, rtpSession, gathering, keyframeRequest
    case frameAssembler(mid: String)
}
