import EventLoop
import Impairment
import PeerCore
import Report
import Scenario
import RTCBase
import SDP
import Signaling

/// One side of a one-to-one call through a room server (role `pair`), as the seed room
/// protocol does it: both join the room; the one told `other_joined` makes the offer, the
/// other answers; offer and answer travel in `message`. Then real WebRTC through
/// `MediaCall`. At its planned end the peer sends DTLS close_notify, leaves the room,
/// and records every phase and stream. When the other side is a browser page (`/peer` of
/// the built-in room server), the end comes in two steps: both sides stop sending, the
/// page reads its `getStats()` once the last packets are in and sends them as a `stats`
/// message, and they go into this peer's record next to its own figures.
public final class CallPeer: PeerDriver {
    public struct Settings {
        public var id: String
        public var group: Int
        public var role: String
        public var seed: UInt64
        public var localAddress: SocketAddress
        public var video: SharedEncoder.Track?
        public var audio: SharedEncoder.Track?
        public var impairment: (send: ImpairmentSchedule?, receive: ImpairmentSchedule?)
        public var ice = ICEConfiguration()
        /// Fully decode what this peer receives (it is in the decoded sample).
        public var decode = false
        public var setupTimeout: Duration = .seconds(20)
        /// Who is at the other end of the room.
        public var partner: Partner = .rtcswarm
        /// `sendonly` for the caller of a one-way call, `recvonly` for its callee.
        public var direction: MediaDirection = .sendrecv
        /// RTX for the video it sends (`media.video.rtx`).
        public var rtx: VideoSettings.Rtx = .auto
        /// When this side is planned to stop: its data channels stop sending `drain` before
        /// it. A partner rtcswarm drives stops then too, so its closing within a second of it
        /// ends the call as completed; an external one leaves when it likes.
        public var plannedStop: Instant?
        /// How long after setup what it receives may take to arrive.
        public var receiveTimeout: Duration = .seconds(5)
        /// The size changes of the video it receives and the mutes of what it receives (its
        /// partner's timeline actions).
        var videoSizeChanges: [ReceivedStreamObserver.SizeChange] = []
        var mutes: [MuteObserver.Window] = []
        /// The data channels the call opens and the messages sent on them (`groups[].data`).
        public var data: ResolvedData?
    }

    public enum Partner: Sendable {
        case rtcswarm
        /// A browser page that reports its own figures when told to `stop`.
        case browser
        /// A client rtcswarm does not drive (an application's, another WebRTC stack): it
        /// joins when it likes and sends what it likes.
        case external
    }

    /// How long a browser page waits after `stop` for the last packets before it reads
    /// its figures, and how long this peer waits for them.
    static let browserDrain: Duration = .milliseconds(1500)
    static let browserStatsTimeout: Duration = .seconds(8)

    public var state: PeerLifecycle { life.state }
    private let loop: EventLoop
    private let settings: Settings
    private let life: MediaPeerLifecycle
    private var call: MediaCall { life.call }
    private let openChannel: (@escaping (CallChannelEvent) -> Void) -> CallChannelDriver
    private var signaling: CallChannelDriver?
    private var joinSentAt: Instant?
    private var joinMs: Double?
    private var joinedAt: Instant?
    /// `partner_wait_ms`: joined -> other_joined when this peer joined first, 0 when the
    /// partner was there already (its offer came).
    private var partnerWaitMs: Double?
    private var browserStats: BrowserStats?
    private var stopping: TimerID?
    /// When the latest timeline `ice.restart` reached this side (`ice_restart_ms` counts from it).
    private var iceRestartAction: Instant?

    /// `openChannel` connects the call's signaling (a room, a direct socket) and routes its events.
    public init(loop: EventLoop, settings: Settings, recorder: RunRecorder, fanout: MediaFanout,
                openChannel: @escaping (@escaping (CallChannelEvent) -> Void) -> CallChannelDriver) {
        self.loop = loop
        self.settings = settings
        self.openChannel = openChannel
        let call = MediaCall(loop: loop, recorder: recorder, fanout: fanout,
                             media: .init(video: settings.video, audio: settings.audio, direction: settings.direction, decode: settings.decode,
                                          receiveTimeout: settings.receiveTimeout, rtx: settings.rtx,
                                          expectsOwnVideoSize: settings.partner == .rtcswarm, videoSizeChanges: settings.videoSizeChanges,
                                          mutes: settings.mutes))
        call.dataChannels = settings.data.map {
            DataChannelCall(loop: loop, recorder: recorder, data: $0, echoesInFigures: settings.partner != .rtcswarm,
                            plannedStop: settings.plannedStop)
        }
        life = MediaPeerLifecycle(loop: loop, recorder: recorder, call: call,
                                  identity: .init(id: settings.id, group: settings.group, role: settings.role),
                                  setupTimeout: settings.setupTimeout, remote: "the other side")
        if settings.partner != .external {
            life.remoteEndExpected = settings.plannedStop.map { $0 - .seconds(1) }
            life.plannedStop = settings.plannedStop
        }
        life.onEnd = { [weak self] record in
            guard let self else { return }
            record.phases["join_ms"] = self.joinMs
            record.phases["partner_wait_ms"] = self.partnerWaitMs
            record.browser = self.browserStats
            if let action = self.iceRestartAction, let restart = self.call.peer?.iceRestart {
                record.phases.merge(restart.phases(since: action)) { _, restarted in restarted }
            }
            if let stopping = self.stopping { self.loop.cancel(stopping) }
            self.signaling?.leave()
        }
        call.onLocalCandidate = { [weak self] candidate, mid in
            // The seed protocol's candidate message: {type, label (m-line index), id (mid), candidate}.
            guard let self, let candidate else { return }
            let label = self.call.peer?.sections.firstIndex { $0.mid == mid } ?? 0
            self.signaling?.send(.candidate(label: label, mid: mid, candidate: candidate))
        }
    }

    func apply(_ action: TimelineAction) {
        guard action.action == .iceRestart else { return call.apply(action) }
        // Both sides of the call get the action: both time it, the offerer restarts.
        guard state == .connected, let peer = call.peer, peer.iceRestart?.isUnderWay != true else { return }
        iceRestartAction = loop.now()
        guard peer.configuration.role == .offerer else { return }
        do {
            signaling?.send(.offer(try peer.restartIce(now: loop.now())))
            call.drive()
        } catch {
            end(.failed, phase: "connected", reason: "cannot restart ICE: \(error)")
        }
    }

    public func start() {
        guard life.begin() else { return }
        signaling = openChannel { [weak self] event in self?.signalingEvent(event) }
    }

    public func stop(interrupted: Bool) {
        guard settings.partner == .browser, !interrupted, state == .connected, stopping == nil else {
            return life.stop(interrupted: interrupted)
        }
        call.stopSending()
        signaling?.send(.stop(drainMs: Int(Self.browserDrain.milliseconds)))
        stopping = loop.schedule(after: Self.browserStatsTimeout) { [weak self] in
            guard let self else { return }
            self.end(.failed, phase: "media", reason: "the browser sent no stats within \(Self.browserStatsTimeout) of stop")
        }
    }

    private func signalingEvent(_ event: CallChannelEvent) {
        let now = loop.now()
        switch event {
        case .connected:
            joinSentAt = now
        case .joined:
            joinMs = joinSentAt.map { now.milliseconds(since: $0) }
            joinedAt = now
        case .partnerArrived:
            guard call.peer == nil else { return }
            partnerWaitMs = joinedAt.map { now.milliseconds(since: $0) }
            life.partnerArrived()
            startCall(role: .offerer) { peer in self.signaling?.send(.offer(try peer.createOffer(now: now))) }
        case .signal(let signal):
            handle(signal, now: now)
        case .refused(let reason):
            end(.failed, phase: "signaling", reason: reason)
        case .partnerLeft:
            if state == .connecting { end(.failed, phase: "signaling", reason: "the other side left before the call was set up") }
        case .closed(let reason):
            // After setup the call no longer needs the signaling connection, but its loss
            // is recorded; before, the call cannot go on.
            if state == .connecting { end(.failed, phase: "signaling", reason: reason) } else { life.noteSignalingLost(reason) }
        }
    }

    private func handle(_ signal: P2PSignal, now: Instant) {
        switch signal {
        case .offer(let sdp):
            if let peer = call.peer, peer.remoteDescription != nil {
                return answerIceRestart(sdp, peer: peer, now: now)
            }
            guard call.peer == nil else { return }
            partnerWaitMs = 0
            startCall(role: .answerer) { peer in
                try peer.setRemoteOffer(sdp, now: now)
                self.signaling?.send(.answer(try peer.createAnswer(now: now)))
            }
        case .answer(let sdp):
            guard let peer = call.peer else { return }
            do {
                if peer.iceRestart != nil, peer.remoteDescription != nil {
                    try peer.applyIceRestartAnswer(sdp, now: now)
                } else {
                    try peer.setRemoteAnswer(sdp, now: now)
                }
                call.drive()
            } catch {
                end(.failed, phase: "signaling", reason: "the answer was refused: \(error)")
            }
        case .stats(let stats) where settings.partner == .browser:
            do {
                browserStats = try BrowserStats(json: stats)
                life.stop(interrupted: false)
            } catch {
                end(.failed, phase: "media", reason: "the browser's stats could not be read: \(error)")
            }
        case .error(let message) where settings.partner == .browser:
            end(.failed, phase: state == .connected ? "media" : "signaling", reason: "the browser page: \(message)")
        case .candidate(_, _, let candidate):
            if let peer = call.peer {
                _ = peer.addRemoteCandidate(candidate, now: now)
                call.drive()
            }
        case .bye:
            signalingEvent(.partnerLeft)
        case .stats, .error, .stop:
            break
        }
    }

    /// A second offer on a set-up call: an ICE restart (RFC 8445 9), answered with new credentials.
    private func answerIceRestart(_ sdp: String, peer: Peer, now: Instant) {
        do {
            signaling?.send(.answer(try peer.acceptIceRestart(sdp, now: now)))
            call.drive()
        } catch {
            end(.failed, phase: "connected", reason: "the ICE restart offer was refused: \(error)")
        }
    }

    private func startCall(role: PeerRole, _ negotiate: (Peer) throws -> Void) {
        do {
            try call.start(role: role, localAddress: settings.localAddress, impairment: settings.impairment,
                           ice: settings.ice, seed: settings.seed,
                           negotiate: negotiate)
        } catch {
            end(.failed, phase: "signaling", reason: "cannot set up the peer: \(error)")
        }
    }

    private func end(_ outcome: PeerRecord.Outcome, phase: String?, reason: String?) {
        life.end(outcome, phase: phase, reason: reason)
    }
}
