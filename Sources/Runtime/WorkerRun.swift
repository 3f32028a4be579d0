import EventLoop
import Media
import Metrics
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
        for (index, peer) in plan.enumerated() {
            let group = scenario.groups[peer.group]
            // From the plan, not this worker's share: the same peer gets the same seed
            // whatever the worker count.
            let seed = scenario.effectiveSeed &+ (UInt64(peer.group) << 33 | UInt64(peer.index) << 1
                | (peer.side == .callee ? 1 : 0)) &* 0x9E37_79B9
            let id = "g\(peer.group)-\(peer.index)" + (peer.side == .single ? "" : "-\(peer.side.rawValue)")
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
                    video: Self.videoTrack(group, target: scenario.target), audio: Self.audioTrack(group),
                    impairment: (group.impairment?.send, group.impairment?.receive))
                peers.append(CallPeer(loop: loop, settings: settings, recorder: recorder, fanout: fanout))
            case .publisher, .player, .echo:
                throw TargetError("role \"\(group.role.rawValue)\" (groups[\(peer.group)]) needs the WebRTC peer, "
                                  + "which this build of rtcswarm does not wire into runs yet; role \"member\" runs")
            }
        }
    }

    /// The first configured local address (port 0: a fresh port per peer), 127.0.0.1 by default.
    static func localAddress(_ group: PeerGroup) -> SocketAddress {
        group.ice?.localAddresses?.first.flatMap { SocketAddress(host: $0, port: 0) } ?? SocketAddress(ipv4: 127, 0, 0, 1, port: 0)
    }

    /// The group's video with the documented defaults (VP8, H.264 on SRS, 640x360, 30 fps, 800 kbps).
    static func videoTrack(_ group: PeerGroup, target: Target) -> SharedEncoder.Track? {
        let video = group.media?.video
        guard video?.enabled ?? true else { return nil }
        let codec: MediaCodec = switch video?.codec ?? (target.kind == .srs ? .h264 : .vp8) {
        case .vp8: .vp8
        case .vp9: .vp9
        case .h264: .h264
        }
        return .video(codec: codec, width: video?.resolution?.width ?? 640, height: video?.resolution?.height ?? 360,
                      fps: video?.fps ?? 30, bitrate: (video?.bitrateKbps ?? 800) * 1000)
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
