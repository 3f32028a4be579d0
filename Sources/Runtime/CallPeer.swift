import EventLoop
import Impairment
import Media
import PeerCore
import Report
import RTCBase
import SDP
import Signaling

/// One side of a one-to-one call through a room server (role `pair`), as the seed room
/// protocol does it: both join the room; the one told `other_joined` makes the offer, the
/// other answers; offer and answer travel in `message`. Then real WebRTC: ICE, DTLS-SRTP,
/// and media both ways from the worker's shared encoders. At its planned end the peer
/// sends DTLS close_notify, leaves the room, and records every phase and stream.
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
        public var setupTimeout: Duration = .seconds(20)
    }

    public private(set) var state: PeerLifecycle = .waiting
    private let loop: EventLoop
    private let settings: Settings
    private let recorder: RunRecorder
    private let fanout: MediaFanout
    private var signaling: RoomClientHost?
    private var host: PeerHost?
    private var startedAt: Instant?
    private var joinSentAt: Instant?
    private var phases: [String: Double] = [:]
    private var observers: [String: ReceivedStreamObserver] = [:]
    private var setupTimer: TimerID?
    private var encoders: [(kind: MediaKind, encoder: SharedEncoder)] = []
    private var registeredSsrcs: [UInt32] = []

    public init(loop: EventLoop, settings: Settings, recorder: RunRecorder, fanout: MediaFanout) {
        self.loop = loop
        self.settings = settings
        self.recorder = recorder
        self.fanout = fanout
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
            self.end(.failed, phase: self.host?.peer == nil ? "signaling" : "ice",
                     reason: "not connected within \(self.settings.setupTimeout)")
        }
    }

    public func stop(interrupted: Bool) {
        switch state {
        case .waiting:
            state = .ended(.interrupted)
        case .connecting:
            end(interrupted ? .interrupted : .failed, phase: host?.peer == nil ? "signaling" : "ice",
                reason: interrupted ? nil : "still setting up at its planned end")
        case .connected:
            end(interrupted ? .interrupted : .completed, phase: nil, reason: nil)
        case .ended:
            return
        }
    }

    // MARK: Signaling

    private func signalingEvent(_ event: RoomClient.Event) {
        let now = loop.now()
        switch event {
        case .ready:
            joinSentAt = now
            signaling?.send(.join(room: settings.room))
        case .message(.joined(let room, _)) where room == settings.room:
            if let sent = joinSentAt { phases["join_ms"] = now.milliseconds(since: sent) }
        case .message(.otherJoined(let room, _)) where room == settings.room:
            guard host?.peer == nil else { return }
            makePeer(role: .offerer) { peer in
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
            guard host?.peer == nil, let sdp = data["sdp"]?.stringValue else { return }
            makePeer(role: .answerer) { peer in
                try peer.setRemoteOffer(sdp, now: now)
                let answer = try peer.createAnswer(now: now)
                self.signaling?.send(.message(room: self.settings.room, data: .object(["type": "answer", "sdp": .string(answer)])))
            }
        case "answer":
            guard let peer = host?.peer, let sdp = data["sdp"]?.stringValue else { return }
            do {
                try peer.setRemoteAnswer(sdp, now: now)
                host?.drive()
            } catch {
                end(.failed, phase: "signaling", reason: "the answer was refused: \(error)")
            }
        case "candidate":
            if let candidate = data["candidate"]?.stringValue, let peer = host?.peer {
                _ = peer.addRemoteCandidate(candidate, now: now)
                host?.drive()
            }
        default:
            break
        }
    }

    /// Creates the WebRTC peer once this side knows whether it offers or answers.
    private func makePeer(role: PeerRole, _ negotiate: (Peer) throws -> Void) {
        do {
            let host = try PeerHost(loop: loop, bindTo: settings.localAddress, send: settings.impairment.send,
                                    receive: settings.impairment.receive, runStart: recorder.runStart, seed: settings.seed)
            var transceivers: [PeerTransceiver] = []
            if settings.audio != nil {
                transceivers.append(PeerTransceiver(mid: "0", kind: .audio, direction: .sendrecv, codecs: [.opus()]))
            }
            if case .video(let codec, _, _, _, _) = settings.video {
                let capability: CodecCapability = switch codec {
                case .h264: .h264()
                case .vp9: .vp9()
                default: .vp8()
                }
                transceivers.append(PeerTransceiver(mid: "1", kind: .video, direction: .sendrecv, codecs: [capability]))
            }
            let peer = try Peer(configuration: PeerConfiguration(role: role, transceivers: transceivers,
                                                                 localAddresses: [host.socket.localAddress], seed: settings.seed),
                                now: loop.now())
            host.onEvent = { [weak self] event in self?.peerEvent(event) }
            self.host = host
            try negotiate(peer)
            host.attach(peer)
        } catch {
            end(.failed, phase: "signaling", reason: "cannot set up the peer: \(error)")
        }
    }

    // MARK: Media

    private func peerEvent(_ event: PeerEvent) {
        switch event {
        case .connected:
            guard state == .connecting, let peer = host?.peer else { return }
            state = .connected
            if let setupTimer { loop.cancel(setupTimer) }
            let sent = peer.stats(now: loop.now()).sent
            for section in peer.sections {
                let track = section.kind == .video ? settings.video : settings.audio
                guard let track else { continue }
                let encoder = fanout.encoder(for: track)
                encoders.append((section.kind, encoder))
                if let stream = sent.first(where: { $0.mid == section.mid }) {
                    fanout.senders.register(ssrc: stream.ssrc, timestampOffset: stream.timestampOffset, encoder: encoder)
                    registeredSsrcs.append(stream.ssrc)
                }
                encoder.subscribe(self) { [weak self] frame in self?.send(frame, kind: section.kind) }
                if section.kind == .video { encoder.requestKeyframe(now: loop.now()) }
            }
        case .frame(let frame):
            let ssrc = host?.peer?.sections.first { $0.mid == frame.mid }?.remoteSsrc
            let captured = ssrc.flatMap { fanout.senders.captureTime(ssrc: $0, rtpTimestamp: frame.rtpTimestamp) }
            observer(for: frame).observe(frame, captureTime: captured)
        case .keyframeRequested:
            encoders.first { $0.kind == .video }?.encoder.requestKeyframe(now: loop.now())
        case .failed(let failure):
            end(.failed, phase: failure.phase.rawValue,
                reason: "\(failure.reason) at \(String(format: "%.1f", recorder.offset(loop.now()) / 1000)) s")
        case .closed:
            if state == .connected { end(.failed, phase: "connected", reason: "the other side closed the call (DTLS close_notify)") }
        default:
            break
        }
    }

    private func send(_ frame: EncodedMediaFrame, kind: MediaKind) {
        guard state == .connected, let host, let peer = host.peer else { return }
        _ = peer.send(frame, kind: kind, now: loop.now())
        host.drive()
    }

    private func observer(for frame: ReceivedFrame) -> ReceivedStreamObserver {
        if let existing = observers[frame.mid] { return existing }
        var published: String?
        if case .video(_, let width, let height, _, _) = settings.video { published = "\(width)x\(height)" }
        let observer = ReceivedStreamObserver(codec: frame.codec, publishedResolution: frame.codec.isVideo ? published : nil)
        observers[frame.mid] = observer
        return observer
    }

    // MARK: The end

    private func end(_ outcome: PeerRecord.Outcome, phase: String?, reason: String?) {
        if case .ended = state { return }
        state = .ended(outcome)
        if let setupTimer { loop.cancel(setupTimer) }
        for (_, encoder) in encoders { encoder.unsubscribe(self) }
        encoders = []
        registeredSsrcs.forEach(fanout.senders.unregister)
        registeredSsrcs = []
        let now = loop.now()
        var streams: [StreamRecord] = []
        if let peer = host?.peer {
            let stats = peer.stats(now: now)
            let timeline = stats.timeline
            phases["signaling_ms"] = timeline.signalingMs
            phases["ice_ms"] = timeline.iceMs
            phases["dtls_ms"] = timeline.dtlsMs
            phases["first_packet_ms"] = timeline.firstPacketMs
            phases["first_frame_ms"] = timeline.firstFrameMs
            if let ice = timeline.iceConnected, let dtls = timeline.dtlsConnected, let started = startedAt {
                phases["setup_ms"] = max(ice, dtls).milliseconds(since: started)
            }
            if let rtt = stats.roundTripTime { phases["rtt_ms"] = rtt.milliseconds }
            for received in stats.received {
                let observer = observers[received.mid] ?? ReceivedStreamObserver(codec: received.codec, publishedResolution: nil)
                var frameRate = 50.0
                if case .video(_, _, _, let fps, _) = settings.video, received.codec.isVideo { frameRate = Double(fps) }
                streams.append(observer.record(received, frameRate: frameRate))
            }
        }
        recorder.countSocketDrops(host?.socketDrops ?? 0)
        host?.close()
        signaling?.send(.leave(room: settings.room))
        signaling?.close()
        recorder.finish(PeerRecord(id: settings.id, group: settings.group, role: settings.role,
                                   startedAtMs: startedAt.map(recorder.offset) ?? recorder.offset(now),
                                   endedAtMs: recorder.offset(now), phases: phases, outcome: outcome,
                                   failedPhase: outcome == .failed ? phase : nil, failureReason: reason,
                                   candidatePair: host?.peer?.selectedPair.map { "\($0.local.type)" }, streams: streams))
    }
}
