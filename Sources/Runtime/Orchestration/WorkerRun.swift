import RTP
import EventLoop
import Media
import Metrics
import Net
import SDP
import Report
import RTCBase
import Scenario
import Signaling

/// One worker's share of a run: its planned peers started and stopped on time on one
/// event loop, and the counts the progress line and the time series need.
public final class WorkerRun {
    public let loop: EventLoop
    public let recorder: RunRecorder
    /// Every driver with its group's index, in start order.
    private var peers: [(driver: PeerDriver, group: Int)] = []
    private var planned: [ExecutionPlan.Peer]
    private var timers: [TimerID] = []
    private let factory: PeerFactory
    private let scenario: Scenario
    /// Each driver's plan entry and attempt (0: the planned one), by peer id.
    private var attempts: [String: (plan: ExecutionPlan.Peer, attempt: Int)] = [:]
    /// Reconnects scheduled and not started yet: the worker is not finished while any wait.
    private var pendingReconnects = 0

    /// Builds the drivers; fails on a role this build cannot play, naming it.
    public init(loop: EventLoop, plan: [ExecutionPlan.Peer], scenario: Scenario, target: ResolvedTarget,
                recorder: RunRecorder, fanout: MediaFanout) throws(TargetError) {
        self.loop = loop
        self.recorder = recorder
        planned = plan
        self.scenario = scenario
        factory = try PeerFactory(loop: loop, scenario: scenario, target: target, recorder: recorder, fanout: fanout)
        for peer in plan { peers.append((try factory.make(peer, attempt: 0), peer.group)) }
        recorder.observe { [weak self] record in self?.reconnectIfAsked(record) }
    }

    /// The driver for a publisher, player or echo peer on an SRS, WHIP, WHEP or Janus target
    /// (over HTTP, or over a WebSocket for a `ws://` or `wss://` Janus URL).
    static func serverPeer(for target: Target, role: PeerGroup.Role, stream: String, endpoint: Endpoint,
                           settings: ServerPeer.Settings, tls: TLSClientContext?, seed: UInt64, loop: EventLoop,
                           recorder: RunRecorder, fanout: MediaFanout, groupIndex: Int, owtFrom: StreamSettings.OWTSource? = nil,
                           peerIndex: Int = 0) throws(TargetError) -> PeerDriver {
        func peer(serverOffers: Bool, _ make: @escaping (_ offer: String?) -> CallSetupDriver) -> PeerDriver {
            var typed = settings
            typed.serverOffers = serverOffers
            typed.endOfCandidatesAfterAnswer = target.kind == .janus
            return ServerPeer(loop: loop, settings: typed, recorder: recorder, fanout: fanout, makeSetup: make)
        }
        /// A Janus call on the transport the URL names.
        func janus(_ plugin: JanusPlugin) -> PeerDriver {
            guard endpoint.scheme == .ws || endpoint.scheme == .wss else {
                return peer(serverOffers: plugin.serverOffers) { offer in
                    StreamHost(loop: loop, machine: HTTPSignaling(JanusCallSetup(server: endpoint, plugin: plugin, offer: offer, seed: seed)),
                               tls: tls)
                }
            }
            return peer(serverOffers: plugin.serverOffers) { offer in
                StreamHost(loop: loop, machine: SingleConnection(JanusWebSocketCallSetup(server: endpoint, plugin: plugin, offer: offer,
                                                                                         seed: seed)), tls: tls)
            }
        }
        let video: Codec? = if case .video(let codec, _, _, _, _, _)? = settings.media.video { codec } else { nil }
        switch target.kind {
        case .srs, .whip, .whep:
            let request = try OfferRequest.maker(target: target, role: role, stream: stream, endpoint: endpoint, video: video)
            return peer(serverOffers: false) { offer in
                switch request(offer ?? "") {
                case .srsAPI(let setup): StreamHost(loop: loop, machine: HTTPSignaling(setup), tls: tls)
                case .whip(let setup): StreamHost(loop: loop, machine: HTTPSignaling(setup), tls: tls)
                }
            }
        case .janus:
            return janus(try .forPeer(target: target, role: role, stream: stream, display: settings.id, video: video, groupIndex: groupIndex))
        case .owt:
            let configuration = try OWTCallSignaling.configuration(target: target, role: role, portal: endpoint, user: settings.id, seed: seed,
                                                                   groupIndex: groupIndex)
            let owtRole = OWTCallSignaling.role(role, from: owtFrom, pick: peerIndex)
            return peer(serverOffers: false) { offer in
                StreamHost(loop: loop, machine: OWTCallSignaling(configuration: configuration, role: owtRole, offer: offer ?? ""), tls: tls)
            }
        case .builtinRoom, .room, .tcpP2P:
            throw TargetError("groups[\(groupIndex)]: role \"\(role.rawValue)\" needs a media server target (srs, whip, whep, janus, owt)")
        }
    }

    /// Where a peer of a `whip` or `whep` target POSTs its offer, and as which: players of a
    /// WHIP target go to its `whep_url` with WHEP; `{stream}` in the path or query is the
    /// peer's stream name, percent-encoded.
    static func whipRequest(target: Target, role: PeerGroup.Role, stream: String,
                            endpoint: Endpoint) throws(TargetError) -> (WHIPCallSetup.Kind, Endpoint) {
        let kind: WHIPCallSetup.Kind = target.kind == .whep || role == .player ? .whep : .whip
        var url = if target.kind == .whip, role == .player, let whepUrl = target.whepUrl {
            try TargetResolver.resolve(whepUrl).endpoint
        } else {
            endpoint
        }
        let encoded = PercentEncoding.encode(stream)
        url.path = url.path.replacingOccurrences(of: "{stream}", with: encoded)
        url.query = url.query?.replacingOccurrences(of: "{stream}", with: encoded)
        return (kind, url)
    }

    /// Whether this peer fully decodes what it receives: about `percent` of the peers of
    /// each group, its first whenever `percent` is above 0 and none at 0, chosen from the
    /// plan so the choice does not depend on the worker count (`run.decode_sample_pct`).
    static func isSampled(_ peer: ExecutionPlan.Peer, percent: Double) -> Bool {
        guard percent > 0 else { return false }
        // One key per receiving stream end: a call's two sides, or a single peer.
        let key = Double(peer.side == .single ? peer.index : peer.index * 2 + (peer.side == .callee ? 1 : 0))
        // Where the running share `key * percent / 100` passes a whole number: the first, then one in every 100 / percent.
        return ((key + 1) * percent / 100).rounded(.up) > (key * percent / 100).rounded(.up)
    }

    /// The first configured local address (port 0: a fresh port per peer), 127.0.0.1 by default.
    static func localAddress(_ group: PeerGroup) -> SocketAddress {
        SocketAddress(host: group.localAddress, port: 0) ?? SocketAddress(ipv4: 127, 0, 0, 1, port: 0)
    }

    /// The group's video (its defaults applied in Scenario), or a user's file with the codec
    /// and size its header says.
    static func videoTrack(_ group: PeerGroup, target: Target, groupIndex: Int) throws(TargetError) -> SharedEncoder.Track? {
        guard let video = group.video(on: target) else { return nil }
        var codec: Codec = switch video.codec {
        case .vp8: .vp8
        case .vp9: .vp9
        case .h264: .h264
        case .h265: .h265
        case .av1: .av1
        }
        var size = video.resolution
        if let file = video.file {
            do {
                let header = try MediaFileHeader(path: file, encodeWith: codec)
                (codec, size) = (header.codec, Resolution(width: header.width, height: header.height))
            } catch {
                throw TargetError("groups[\(groupIndex)].media.video.file: \(file): \(FileProblem.describe(error))")
            }
        }
        return .video(codec: codec, size: size, fps: video.fps, bitrate: video.bitrateKbps * 1000,
                      keyframeInterval: video.keyframeIntervalFrames, file: video.file)
    }

    /// The group's audio (Opus; its defaults applied in Scenario).
    static func audioTrack(_ group: PeerGroup) -> SharedEncoder.Track? {
        group.audio.map { .audio(channels: $0.channels, bitrate: $0.bitrateKbps * 1000) }
    }

    /// Schedules every start and stop relative to `runStart`.
    public func begin() {
        for (peer, plan) in zip(peers, planned) { schedule(peer.driver, plan, attempt: 0, at: recorder.runStart + .milliseconds(plan.startMs)) }
    }

    /// Starts `peer` at `start` (after `starting`) and stops it at its planned end.
    private func schedule(_ peer: PeerDriver, _ plan: ExecutionPlan.Peer, attempt: Int, at start: Instant,
                          starting: @escaping () -> Void = {}) {
        attempts[PeerFactory.id(plan, attempt: attempt)] = (plan, attempt)
        timers.append(loop.schedule(at: start) {
            starting()
            peer.start()
        })
        timers.append(loop.schedule(at: recorder.runStart + .milliseconds(plan.stopMs)) { peer.stop(interrupted: false) })
        guard let sender = peer as? MediaSender else { return }
        for planned in ExecutionPlan.actions(for: plan, in: scenario) where planned.atMs < plan.stopMs {
            timers.append(loop.schedule(at: recorder.runStart + .milliseconds(planned.atMs)) { sender.apply(planned.action) })
        }
    }

    /// A peer of a group with `reconnect` that failed before its planned stop tries again
    /// after the delay, as a new peer with its own record, while attempts and its stay last.
    private func reconnectIfAsked(_ record: PeerRecord) {
        guard record.outcome == .failed, let (plan, attempt) = attempts[record.id], let reconnect = factory.reconnect(plan),
              attempt < reconnect.attempts else { return }
        let at = loop.now() + .milliseconds(Int64(reconnect.delay * 1000))
        guard at < recorder.runStart + .milliseconds(plan.stopMs) else { return }
        guard let peer = try? factory.make(plan, attempt: attempt + 1) else { return }
        pendingReconnects += 1
        schedule(peer, plan, attempt: attempt + 1, at: at) { [weak self] in
            self?.pendingReconnects -= 1
            self?.peers.append((peer, plan.group))
        }
    }

    /// Stops spawning and ends every live peer politely, marked interrupted.
    public func interrupt() {
        timers.forEach(loop.cancel)
        timers = []
        pendingReconnects = 0
        for peer in peers { peer.driver.stop(interrupted: true) }
    }

    /// The peers connecting, connected and failed, by group index (one pass, once a second).
    public var statesByGroup: [Int: PeerStates] {
        peers.reduce(into: [:]) { $0[$1.group, default: PeerStates()].count($1.driver.state) }
    }

    /// Every peer has ended.
    public var isFinished: Bool {
        pendingReconnects == 0 && peers.allSatisfy { if case .ended = $0.driver.state { true } else { false } }
    }
}

extension PeerStates {
    /// Counts one peer in `state`; waiting and ended-but-not-failed peers are in none.
    mutating func count(_ state: PeerLifecycle) {
        switch state {
        case .connecting: connecting += 1
        case .connected: connected += 1
        case .ended(.failed): failed += 1
        case .waiting, .ended(.completed), .ended(.interrupted): break
        }
    }
}
