import EventLoop
import Impairment
import PeerCore
import Report
import RTCBase
import Signaling

/// One side of a one-to-one call through a room server (role `pair`), as the seed room
/// protocol does it: both join the room; the one told `other_joined` makes the offer, the
/// other answers; offer and answer travel in `message`. Then real WebRTC through
/// `MediaCall`. At its planned end the peer sends DTLS close_notify, leaves the room,
/// and records every phase and stream.
public final class CallPeer: PeerDriver {
    public struct Settings {
        public var target: ResolvedTarget
        public var transport: RoomClient.Transport
        public var names: RoomEventNames
        public var room: String
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
    }

    public private(set) var state: PeerLifecycle = .waiting
    private let loop: EventLoop
    private let settings: Settings
    private let recorder: RunRecorder
    private let call: MediaCall
    private var signaling: RoomClientHost?
    private var startedAt: Instant?
    private var joinSentAt: Instant?
    private var joinMs: Double?
    private var setupTimer: TimerID?

    public init(loop: EventLoop, settings: Settings, recorder: RunRecorder, fanout: MediaFanout) {
        self.loop = loop
        self.settings = settings
        self.recorder = recorder
        call = MediaCall(loop: loop, recorder: recorder, fanout: fanout,
                         media: .init(video: settings.video, audio: settings.audio, direction: .sendrecv, decode: settings.decode))
        call.onConnected = { [weak self] in
            guard let self, self.state == .connecting else { return }
            self.state = .connected
            if let setupTimer = self.setupTimer { self.loop.cancel(setupTimer) }
        }
        call.onFailed = { [weak self] failure in
            guard let self else { return }
            self.end(.failed, phase: failure.phase.rawValue,
                     reason: "\(failure.reason) at \(String(format: "%.1f", self.recorder.offset(self.loop.now()) / 1000)) s")
        }
        call.onRemoteClosed = { [weak self] in
            self?.end(.failed, phase: "connected", reason: "the other side closed the call (DTLS close_notify)")
        }
        call.onLocalCandidate = { [weak self] candidate, mid in
            // The seed protocol's candidate message: {type, label (m-line index), id (mid), candidate}.
            guard let self, let candidate else { return }
            let label = Int64(self.call.peer?.sections.firstIndex { $0.mid == mid } ?? 0)
            self.signaling?.send(.message(room: self.settings.room, data: .object([
                "type": "candidate", "label": .integer(label), "id": .string(mid), "candidate": .string(candidate),
            ])))
        }
    }

    public func start() {
        guard state == .waiting else { return }
        state = .connecting
        startedAt = loop.now()
        do {
            let client = try RoomClientHost(loop: loop, address: settings.target.address, endpoint: settings.target.endpoint,
                                            transport: settings.transport, names: settings.names, seed: settings.seed)
            client.onEvent = { [weak self] event in self?.signalingEvent(event) }
            signaling = client
        } catch {
            return end(.failed, phase: "signaling", reason: "cannot connect to the room server at \(settings.target.address): \(error)")
        }
        setupTimer = loop.schedule(after: settings.setupTimeout) { [weak self] in
            guard let self, self.state == .connecting else { return }
            self.end(.failed, phase: self.call.peer == nil ? "signaling" : "ice",
                     reason: "not connected within \(self.settings.setupTimeout)")
        }
    }

    public func stop(interrupted: Bool) {
        switch state {
        case .waiting:
            state = .ended(.interrupted)
        case .connecting:
            end(interrupted ? .interrupted : .failed, phase: call.peer == nil ? "signaling" : "ice",
                reason: interrupted ? nil : "still setting up at its planned end")
        case .connected:
            end(interrupted ? .interrupted : .completed, phase: nil, reason: nil)
        case .ended:
            return
        }
    }

    private func signalingEvent(_ event: RoomClient.Event) {
        let now = loop.now()
        switch event {
        case .ready:
            joinSentAt = now
            signaling?.send(.join(room: settings.room))
        case .message(.joined(let room, _)) where room == settings.room:
            joinMs = joinSentAt.map { now.milliseconds(since: $0) }
        case .message(.otherJoined(let room, _)) where room == settings.room:
            guard call.peer == nil else { return }
            startCall(role: .offerer) { peer in
                let offer = try peer.createOffer(now: now)
                self.signaling?.send(.message(room: room, data: .object(["type": "offer", "sdp": .string(offer)])))
            }
        case .message(.message(let room, let data)) where room == settings.room:
            handleSignal(data, now: now)
        case .message(.full(let room, _)) where room == settings.room:
            end(.failed, phase: "signaling", reason: "room \(room) is full")
        case .message(.bye(let room, _)) where room == settings.room:
            if state == .connecting { end(.failed, phase: "signaling", reason: "the other side left before the call was set up") }
        case .message:
            break
        case .closed(let reason):
            // After setup the call no longer needs the room server; before, it cannot go on.
            if state == .connecting { end(.failed, phase: "signaling", reason: reason) }
        }
    }

    private func handleSignal(_ data: JSONValue, now: Instant) {
        switch data["type"]?.stringValue {
        case "offer":
            guard call.peer == nil, let sdp = data["sdp"]?.stringValue else { return }
            startCall(role: .answerer) { peer in
                try peer.setRemoteOffer(sdp, now: now)
                let answer = try peer.createAnswer(now: now)
                self.signaling?.send(.message(room: self.settings.room, data: .object(["type": "answer", "sdp": .string(answer)])))
            }
        case "answer":
            guard let peer = call.peer, let sdp = data["sdp"]?.stringValue else { return }
            do {
                try peer.setRemoteAnswer(sdp, now: now)
                call.drive()
            } catch {
                end(.failed, phase: "signaling", reason: "the answer was refused: \(error)")
            }
        case "candidate":
            if let candidate = data["candidate"]?.stringValue, let peer = call.peer {
                _ = peer.addRemoteCandidate(candidate, now: now)
                call.drive()
            }
        default:
            break
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
        if case .ended = state { return }
        state = .ended(outcome)
        if let setupTimer { loop.cancel(setupTimer) }
        let now = loop.now()
        var (phases, streams, pair) = call.finish(startedAt: startedAt)
        phases["join_ms"] = joinMs
        signaling?.send(.leave(room: settings.room))
        signaling?.close()
        recorder.finish(PeerRecord(id: settings.id, group: settings.group, role: settings.role,
                                   startedAtMs: startedAt.map(recorder.offset) ?? recorder.offset(now),
                                   endedAtMs: recorder.offset(now), phases: phases, outcome: outcome,
                                   failedPhase: outcome == .failed ? phase : nil, failureReason: reason,
                                   candidatePair: pair, streams: streams))
    }
}
