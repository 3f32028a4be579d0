import EventLoop
import Impairment
import Net
import Report
import RTCBase
import Scenario
import SDP
import Signaling

/// Makes the driver of one planned peer: its role's driver with the group's settings,
/// a seed of its own, and for a reconnect (`attempt` > 0) a new id and seed, so each
/// connection is a peer of its own in the report.
struct PeerFactory {
    private let loop: EventLoop
    private let scenario: Scenario
    private let target: ResolvedTarget
    private let recorder: RunRecorder
    private let fanout: MediaFanout
    private let tls: TLSClientContext?
    /// The run's whole plan when it has a timeline (a player's publisher may run in another worker).
    private let wholePlan: ExecutionPlan?
    /// How pairs and members reach the room server.
    private let room: RoomAccess

    init(loop: EventLoop, scenario: Scenario, target: ResolvedTarget, recorder: RunRecorder, fanout: MediaFanout) throws(TargetError) {
        self.loop = loop
        self.scenario = scenario
        self.target = target
        self.recorder = recorder
        self.fanout = fanout
        if target.endpoint.scheme.isSecure {
            do {
                tls = try TLSClientContext(configuration: TLSConfiguration(verifyCertificates: scenario.target.verifiesCertificates))
            } catch {
                throw TargetError("cannot set up TLS for \(target.endpoint): \(error)")
            }
        } else {
            tls = nil
        }
        wholePlan = scenario.timeline?.isEmpty == false ? ExecutionPlan(scenario: scenario, workers: 1) : nil
        room = RoomAccess(target: target, transport: scenario.target.room?.transport == .websocket ? .webSocket : .socketIO,
                          names: RoomEventNames(otherJoined: scenario.target.otherJoinedEvent), tls: tls)
    }

    /// Who answers a pair's calls, as the call driver sees it.
    static func partner(_ partner: PeerGroup.Partner) -> CallPeer.Partner {
        switch partner {
        case .rtcswarm: .rtcswarm
        case .chromium: .browser
        case .external: .external
        }
    }

    /// The id of `peer`'s `attempt`: the plan's id, then `<id>-r1`, `<id>-r2`...
    static func id(_ peer: ExecutionPlan.Peer, attempt: Int) -> String { attempt == 0 ? peer.id : "\(peer.id)-r\(attempt)" }

    /// The seed of `peer`'s `attempt`: every peer of a run (whatever its worker) gets one
    /// of its own, and so its own SSRCs, ICE credentials and transaction IDs.
    static func seed(_ peer: ExecutionPlan.Peer, attempt: Int, base: UInt64) -> UInt64 {
        let side: UInt64 = switch peer.side {
        case .single: 0
        case .caller: 1
        case .callee: 2
        }
        // The generation in the high half: a first connection's seeds stay as they were.
        return SeededGenerator.mixing(base, UInt64(peer.group), UInt64(peer.index), side, UInt64(attempt) | UInt64(peer.generation) << 32)
    }

    func make(_ peer: ExecutionPlan.Peer, attempt: Int) throws(TargetError) -> PeerDriver {
        let group = scenario.groups[peer.group]
        // From the plan, not this worker's share: the same peer gets the same seed
        // whatever the worker count; each reconnect one of its own.
        let seed = Self.seed(peer, attempt: attempt, base: scenario.effectiveSeed)
        let id = Self.id(peer, attempt: attempt)
        if peer.leavesByTimeline { recorder.leavesByTimeline(id) }
        let decode = WorkerRun.isSampled(peer, percent: scenario.decodeSamplePct)
        let ice = try ICEConfiguration(group, groupIndex: peer.group)
        let receiveTimeout = Duration.milliseconds(Int64((group.receiveTimeoutS * 1000).rounded()))
        switch group.role {
        case .member where scenario.target.kind == .owt:
            let configuration = try OWTCallSignaling.configuration(target: scenario.target, role: .member, portal: target.endpoint, user: id,
                                                                   seed: seed, groupIndex: peer.group)
            let settings = OWTMemberPeer.Settings(configuration: configuration, tls: tls, id: id, group: peer.group,
                                                  textInterval: scenario.target.owtTextInterval)
            return OWTMemberPeer(loop: loop, settings: settings, recorder: recorder)
        case .member:
            let settings = RoomMemberPeer.Settings(
                signaling: room, room: peer.roomName, id: id, group: peer.group, seed: seed)
            return RoomMemberPeer(loop: loop, settings: settings, recorder: recorder)
        case .pair:
            let settings = CallPeer.Settings(
                id: id, group: peer.group,
                role: peer.side.rawValue, seed: seed, localAddress: WorkerRun.localAddress(group),
                video: try WorkerRun.videoTrack(group, target: scenario.target, groupIndex: peer.group), audio: WorkerRun.audioTrack(group),
                impairment: impairment(of: peer), ice: ice, decode: decode,
                partner: Self.partner(group.resolvedPartner),
                direction: group.isOneWay ? (peer.side == .callee ? .recvonly : .sendonly) : .sendrecv,
                rtx: group.videoRtx,
                plannedStop: recorder.runStart + .milliseconds(peer.stopMs),
                receiveTimeout: receiveTimeout, videoSizeChanges: videoSizeChanges(receivedBy: peer), mutes: mutes(receivedBy: peer),
                data: group.resolvedData)
            return CallPeer(loop: loop, settings: settings, recorder: recorder, fanout: fanout,
                            openChannel: callChannel(peer, seed: seed))
        case .publisher, .player, .echo:
            let direction: MediaDirection = group.role == .publisher ? .sendonly : group.role == .player ? .recvonly : .sendrecv
            let settings = ServerPeer.Settings(
                id: id, group: peer.group, role: group.role.rawValue, seed: seed, localAddress: WorkerRun.localAddress(group),
                media: MediaCall.Media(video: try WorkerRun.videoTrack(group, target: scenario.target, groupIndex: peer.group),
                                       audio: WorkerRun.audioTrack(group),
                                       direction: direction, decode: decode, receiveTimeout: receiveTimeout,
                                       endsWhenLost: reconnect(peer) != nil, rtx: group.videoRtx,
                                       videoSizeChanges: videoSizeChanges(receivedBy: peer), mutes: mutes(receivedBy: peer)),
                impairment: impairment(of: peer), ice: ice,
                plannedStop: recorder.runStart + .milliseconds(peer.stopMs),
                textInterval: scenario.target.kind == .owt ? scenario.target.owtTextInterval : nil, data: group.resolvedData)
            return try WorkerRun.serverPeer(for: scenario.target, role: group.role, stream: peer.streamName,
                                            endpoint: target.endpoint, settings: settings, tls: tls, seed: seed, loop: loop,
                                            recorder: recorder, fanout: fanout, groupIndex: peer.group, owtFrom: group.stream?.from,
                                            peerIndex: peer.index)
        }
    }

    /// How a pair's call is signaled on this target: through the room server, or straight
    /// over TCP (`tcp-p2p`: call i's caller listens on the URL's port + i, its callee
    /// connects there).
    private func callChannel(_ peer: ExecutionPlan.Peer, seed: UInt64) -> (@escaping (CallChannelEvent) -> Void) -> CallChannelDriver {
        let loop = loop
        switch scenario.target.kind {
        case .tcpP2P:
            let port = UInt16(clamping: Int(target.address.port) + peer.index)
            let side: TCPCallChannel.Side = peer.side == .callee
                ? .connecting(StreamDestination(host: target.endpoint.host, port: port, secure: false)) : .listening
            return { onEvent in
                let host = StreamHost(loop: loop, machine: TCPCallChannel(side: side))
                host.onEvent = onEvent
                if side == .listening {
                    var listening = target.address
                    listening.port = port
                    do {
                        try host.listen(on: listening)
                    } catch {
                        _ = loop.schedule(after: .zero) { onEvent(.closed(reason: "cannot listen on \(listening): \(error)")) }
                    }
                }
                host.run()
                return host
            }
        case .builtinRoom, .room, .srs, .whip, .whep, .janus, .owt:
            let room = room, name = peer.roomName
            return { onEvent in room.call(loop: loop, room: name, seed: seed, onEvent: onEvent) }
        }
    }

    /// When the video `peer` receives changes size (its sender's timeline actions), on this run's clock.
    private func videoSizeChanges(receivedBy peer: ExecutionPlan.Peer) -> [ReceivedStreamObserver.SizeChange] {
        guard let wholePlan else { return [] }
        return wholePlan.videoSizeChanges(receivedBy: peer, in: scenario).compactMap { planned in
            planned.action.resolution.map {
                .init(at: recorder.runStart + .milliseconds(planned.atMs), size: $0, entry: planned.entry)
            }
        }
    }

    /// When what `peer` receives is planned muted (its sender's mutes), on this run's clock.
    private func mutes(receivedBy peer: ExecutionPlan.Peer) -> [MuteObserver.Window] {
        guard let wholePlan else { return [] }
        return wholePlan.muteWindows(receivedBy: peer, in: scenario).map { window in
            .init(track: window.track, from: recorder.runStart + .milliseconds(window.fromMs),
                  until: window.untilMs.map { recorder.runStart + .milliseconds($0) }, mode: window.mode, entry: window.entry,
                  unmuteEntry: window.unmuteEntry)
        }
    }

    /// The schedules of `peer`'s links: its group's impairment with the timeline's
    /// `impairment` actions in it.
    private func impairment(of peer: ExecutionPlan.Peer) -> (send: ImpairmentSchedule?, receive: ImpairmentSchedule?) {
        let settings = scenario.impairment(ofGroup: peer.group)
        return (settings?.send, settings?.receive)
    }

    /// The group's reconnect settings, when it has any attempts.
    func reconnect(_ peer: ExecutionPlan.Peer) -> ReconnectSettings? {
        scenario.groups[peer.group].reconnect.flatMap { $0.attempts > 0 ? $0 : nil }
    }
}
