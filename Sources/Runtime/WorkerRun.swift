import EventLoop
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
                recorder: RunRecorder) throws(TargetError) {
        self.loop = loop
        self.recorder = recorder
        planned = plan
        let names = RoomEventNames(otherJoined: scenario.target.room?.otherJoinedEvent ?? "other_joined")
        let transport: RoomClient.Transport = scenario.target.room?.transport == .websocket ? .webSocket : .socketIO
        for (index, peer) in plan.enumerated() {
            let group = scenario.groups[peer.group]
            switch group.role {
            case .member:
                let settings = RoomMemberPeer.Settings(
                    target: target, transport: transport, names: names, room: peer.room ?? "room",
                    id: "g\(peer.group)-\(peer.index)-\(index)", group: peer.group,
                    // From the plan, not this worker's share: the same peer gets the same seed
                    // whatever the worker count.
                    seed: scenario.effectiveSeed &+ (UInt64(peer.group) << 32 | UInt64(peer.index)) &* 0x9E37_79B9)
                peers.append(RoomMemberPeer(loop: loop, settings: settings, recorder: recorder))
            case .pair, .publisher, .player, .echo:
                throw TargetError("role \"\(group.role.rawValue)\" (groups[\(peer.group)]) needs the WebRTC peer, "
                                  + "which this build of rtcswarm does not wire into runs yet; role \"member\" runs")
            }
        }
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
