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
    public struct Counts: Sendable, Equatable {
        public var waiting = 0
        public var connecting = 0
        public var connected = 0
        public var completed = 0
        public var failed = 0
        public var interrupted = 0
    }

    public let loop: EventLoop
    public let recorder: RunRecorder
    private var peers: [PeerDriver] = []
    private var planned: [ExecutionPlan.Peer]
    private var timers: [TimerID] = []

    /// Builds the drivers; fails on a role this build cannot play, naming it.
    public init(loop: EventLoop, plan: [ExecutionPlan.Peer], scenario: Scenario, target: ResolvedTarget,
                recorder: RunRecorder, fanout: MediaFanout) throws(TargetError) {
        self.loop = loop
        self.recorder = recorder
        planned = plan
        let names = RoomEventNames(otherJoined: scenario.target.room?.otherJoinedEvent ?? "other_joined")
        let transport: RoomClient.Transport = scenario.target.room?.transport == .websocket ? .webSocket : .socketIO
        var tls: TLSClientContext?
        if target.endpoint.scheme.isSecure {
            do {
                tls = try TLSClientContext(configuration: TLSConfiguration(verifyCertificates: !(scenario.target.insecureTls ?? false)))
            } catch {
                throw TargetError("cannot set up TLS for \(target.endpoint): \(error)")
            }
        }
        for peer in plan {
            let group = scenario.groups[peer.group]
            // From the plan, not this worker's share: the same peer gets the same seed
            // whatever the worker count.
            let seed = scenario.effectiveSeed &+ (UInt64(peer.group) << 33 | UInt64(peer.index) << 1
                | (peer.side == .callee ? 1 : 0)) &* 0x9E37_79B9
            let id = peer.id
            let decode = Self.isSampled(peer, percent: scenario.run?.decodeSamplePct ?? 5)
            let ice = try ICEConfiguration(group.ice, groupIndex: peer.group)
            let receiveTimeout = Duration.milliseconds(Int64(((group.media?.receiveTimeoutS ?? MediaSettings.defaultReceiveTimeoutS) * 1000).rounded()))
            switch group.role {
            case .member:
                let settings = RoomMemberPeer.Settings(
                    target: target, transport: transport, names: names, room: peer.room ?? "room",
                    id: id, group: peer.group, seed: seed)
                peers.append(RoomMemberPeer(loop: loop, settings: settings, recorder: recorder))
            case .pair:
                let settings = CallPeer.Settings(
                    target: target, transport: transport, names: names, room: peer.room ?? "room", id: id, group: peer.group,
                    role: peer.side.rawValue, seed: seed, localAddress: Self.localAddress(group),
                    video: try Self.videoTrack(group, target: scenario.target, groupIndex: peer.group), audio: Self.audioTrack(group),
                    impairment: (group.impairment?.send, group.impairment?.receive), ice: ice, decode: decode,
                    partner: group.partner == .chromium ? .browser : .rtcswarm,
                    direction: group.oneWay ?? false ? (peer.side == .callee ? .recvonly : .sendonly) : .sendrecv,
                    plannedStop: group.partner == .external ? nil : recorder.runStart + .milliseconds(peer.stopMs),
                    receiveTimeout: receiveTimeout)
                peers.append(CallPeer(loop: loop, settings: settings, recorder: recorder, fanout: fanout))
            case .publisher, .player, .echo:
                let direction: MediaDirection = group.role == .publisher ? .sendonly : group.role == .player ? .recvonly : .sendrecv
                let settings = ServerPeer.Settings(
                    id: id, group: peer.group, role: group.role.rawValue, seed: seed, localAddress: Self.localAddress(group),
                    media: MediaCall.Media(video: try Self.videoTrack(group, target: scenario.target, groupIndex: peer.group),
                                           audio: Self.audioTrack(group),
                                           direction: direction, decode: decode, receiveTimeout: receiveTimeout),
                    impairment: (group.impairment?.send, group.impairment?.receive), ice: ice)
                peers.append(try Self.serverPeer(for: scenario.target, role: group.role, stream: peer.stream ?? "livestream",
                                                 endpoint: target.endpoint, settings: settings, tls: tls, seed: seed, loop: loop,
                                                 recorder: recorder, fanout: fanout, groupIndex: peer.group))
            }
        }
    }

    /// The driver for a publisher, player or echo peer on an SRS, WHIP, WHEP or Janus target
    /// (over HTTP, or over a WebSocket for a `ws://` or `wss://` Janus URL).
    static func serverPeer(for target: Target, role: PeerGroup.Role, stream: String, endpoint: Endpoint,
                           settings: ServerPeer.Settings, tls: TLSClientContext?, seed: UInt64, loop: EventLoop,
                           recorder: RunRecorder, fanout: MediaFanout, groupIndex: Int) throws(TargetError) -> PeerDriver {
        func peer(serverOffers: Bool, _ make: @escaping (_ offer: String?) -> CallSetupDriver) -> PeerDriver {
            var typed = settings
            typed.serverOffers = serverOffers
            typed.endOfCandidatesAfterAnswer = target.kind == .janus
            return ServerPeer(loop: loop, settings: typed, recorder: recorder, fanout: fanout, makeSetup: make)
        }
        func driver<Setup: CallSetup>(_ make: @escaping (String?) -> Setup) -> PeerDriver {
            peer(serverOffers: false) { offer in CallSetupHost(loop: loop, setup: make(offer), tls: tls) }
        }
        /// A Janus call on the transport the URL names.
        func janus(_ plugin: JanusPlugin) -> PeerDriver {
            guard endpoint.scheme == .ws || endpoint.scheme == .wss else {
                return peer(serverOffers: plugin.serverOffers) { offer in
                    CallSetupHost(loop: loop, setup: JanusCallSetup(server: endpoint, plugin: plugin, offer: offer, seed: seed), tls: tls)
                }
            }
            return peer(serverOffers: plugin.serverOffers) { offer in
                JanusWebSocketHost(loop: loop, setup: JanusWebSocketCallSetup(server: endpoint, plugin: plugin, offer: offer, seed: seed),
                                   tls: tls)
            }
        }
        let video: MediaCodec? = if case .video(let codec, _, _, _, _, _, _)? = settings.media.video { codec } else { nil }
        switch target.kind {
        case .srs:
            let app = target.srs?.app ?? "live"
            let eip = target.srs?.eip ?? "127.0.0.1"
            let codec = video == .h265 ? "hevc" : nil  // SRS takes H.265 only when asked (PROTOCOLS.md 1)
            if target.srs?.api == .whipWhep {
                let kind: WHIPCallSetup.Kind = role == .publisher ? .whip : .whep
                return driver { offer in
                    WHIPCallSetup.srs(kind: kind, api: endpoint, app: app, stream: stream, offer: offer ?? "", eip: eip, codec: codec)
                }
            }
            let streamURL = "webrtc://\(endpoint.host)/\(app)/\(stream)"
            return driver { offer in
                SRSCallSetup(api: endpoint, streamURL: streamURL, mode: role == .publisher ? .publish : .play, offer: offer ?? "", eip: eip,
                             codec: codec)
            }
        case .whip, .whep:
            let kind: WHIPCallSetup.Kind = target.kind == .whip ? .whip : .whep
            return driver { offer in WHIPCallSetup(kind: kind, endpoint: endpoint, offer: offer ?? "", token: target.bearerToken) }
        case .janus:
            return janus(try .forPeer(target: target, role: role, stream: stream, display: settings.id, video: video, groupIndex: groupIndex))
        case .builtinRoom, .room:
            throw TargetError("groups[\(groupIndex)]: role \"\(role.rawValue)\" needs a media server target (srs, whip, whep, janus)")
        }
    }

    /// Whether this peer fully decodes what it receives: about `percent` of the peers of
    /// each group, always its first, chosen from the plan so the choice does not depend on
    /// the worker count (`run.decode_sample_pct`).
    static func isSampled(_ peer: ExecutionPlan.Peer, percent: Double) -> Bool {
        let key = Double(peer.index * 2 + (peer.side == .callee ? 1 : 0))
        return key == 0 || ((key + 1) * percent / 100).rounded(.down) > (key * percent / 100).rounded(.down)
    }

    /// The first configured local address (port 0: a fresh port per peer), 127.0.0.1 by default.
    static func localAddress(_ group: PeerGroup) -> SocketAddress {
        group.ice?.localAddresses?.first.flatMap { SocketAddress(host: $0, port: 0) } ?? SocketAddress(ipv4: 127, 0, 0, 1, port: 0)
    }

    /// The group's video with the documented defaults (VP8, H.264 on SRS, 640x360, 30 fps,
    /// 800 kbps), or a user's file with the codec and size its header says.
    static func videoTrack(_ group: PeerGroup, target: Target, groupIndex: Int) throws(TargetError) -> SharedEncoder.Track? {
        let video = group.media?.video
        guard video?.enabled ?? true else { return nil }
        var codec: MediaCodec = switch video?.codec ?? (target.kind == .srs ? .h264 : .vp8) {
        case .vp8: .vp8
        case .vp9: .vp9
        case .h264: .h264
        case .h265: .h265
        }
        var width = video?.resolution?.width ?? 640
        var height = video?.resolution?.height ?? 360
        let fps = video?.fps ?? 30
        let bitrate = (video?.bitrateKbps ?? 800) * 1000
        if let file = video?.file {
            do {
                let header = try MediaFileHeader(path: file, encodeWith: codec)
                (codec, width, height) = (header.codec, header.width, header.height)
            } catch {
                throw TargetError("groups[\(groupIndex)].media.video.file: \(file): \(error)")
            }
        }
        let keyframeInterval = video?.keyframeIntervalS.map { max(1, Int(($0 * Double(fps)).rounded())) } ?? VideoEncoderConfig.defaultKeyframeInterval
        return .video(codec: codec, width: width, height: height, fps: fps, bitrate: bitrate, keyframeInterval: keyframeInterval, file: video?.file)
    }

    /// The group's audio with the documented defaults (Opus mono, 32 kbps).
    static func audioTrack(_ group: PeerGroup) -> SharedEncoder.Track? {
        let audio = group.media?.audio
        guard audio?.enabled ?? true else { return nil }
        return .audio(channels: audio?.channels ?? 1, bitrate: (audio?.bitrateKbps ?? 32) * 1000)
    }

    /// Schedules every start and stop relative to `runStart`.
    public func begin() {
        for (peer, plan) in zip(peers, planned) {
            timers.append(loop.schedule(at: recorder.runStart + .milliseconds(plan.startMs)) { peer.start() })
            timers.append(loop.schedule(at: recorder.runStart + .milliseconds(plan.stopMs)) { peer.stop(interrupted: false) })
        }
    }

    /// Stops spawning and ends every live peer politely, marked interrupted.
    public func interrupt() {
        timers.forEach(loop.cancel)
        timers = []
        for peer in peers { peer.stop(interrupted: true) }
    }

    public var counts: Counts {
        var counts = Counts()
        for peer in peers {
            switch peer.state {
            case .waiting: counts.waiting += 1
            case .connecting: counts.connecting += 1
            case .connected: counts.connected += 1
            case .ended(.completed): counts.completed += 1
            case .ended(.failed): counts.failed += 1
            case .ended(.interrupted): counts.interrupted += 1
            }
        }
        return counts
    }

    /// Every peer has ended.
    public var isFinished: Bool {
        peers.allSatisfy { if case .ended = $0.state { true } else { false } }
    }
}
