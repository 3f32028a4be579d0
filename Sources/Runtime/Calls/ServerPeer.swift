import EventLoop
import Impairment
import Net
import PeerCore
import Report
import Scenario
import RTCBase
import Signaling

/// A peer that sets its call up with a media server through one of the `CallSetup`
/// adapters: SRS's API, WHIP, WHEP or Janus (roles `publisher`, `player`, `echo`). We
/// offer and the server answers, except where the server offers (a Janus subscriber, a
/// WHEP 406 counter-offer) and we answer. At its planned end it closes DTLS and hangs up
/// (DELETE, Janus teardown); failures quote the server. The setup runs on a
/// `CallSetupDriver`: HTTP requests, or Janus's WebSocket. An OWT peer also notes its
/// conference's notifications and sends and times texts like a member.
final class ServerPeer: PeerDriver {
    struct Settings {
        var id: String
        var group: Int
        var role: String
        var seed: UInt64
        var localAddress: SocketAddress
        var media: MediaCall.Media
        var impairment: (send: ImpairmentSchedule?, receive: ImpairmentSchedule?)
        var ice = ICEConfiguration()
        /// Whether the server makes the offer (Janus VideoRoom subscribers).
        var serverOffers = false
        /// Whether to send the end of candidates once the answer is in (Janus waits for it;
        /// our candidates were in the offer).
        var endOfCandidatesAfterAnswer = false
        var setupTimeout: Duration = .seconds(20)
        /// When the plan stops it (the lifecycle judges a lost connection as of then).
        var plannedStop: Instant?
        /// OWT: between two stamped texts to the conference; nil: none.
        var textInterval: Duration?
        /// The data channels the peer opens and sends on (Janus's EchoTest returns them), or,
        /// for a player, receives (Janus's VideoRoom relays its publisher's).
        var data: ResolvedData?
    }

    var state: PeerLifecycle { life.state }
    private let loop: EventLoop
    private let settings: Settings
    private let life: MediaPeerLifecycle
    private var call: MediaCall { life.call }
    private let makeSetup: (_ offer: String?) -> CallSetupDriver
    private var setup: CallSetupDriver?
    /// The steps the adapter timed (`.timing`), for the record's phases.
    private var timings: [String: Double] = [:]
    /// An OWT peer's conference beyond its own call: what it noted, and its texts.
    private var conference: OWTConferenceWatch?
    private let texts: StampedMessages
    /// When the latest timeline `ice.restart` reached this peer (`ice_restart_ms` counts from it).
    private var iceRestartAction: Instant?

    /// `makeSetup` builds the adapter on its driver from our offer (nil when the server offers).
    init(loop: EventLoop, settings: Settings, recorder: RunRecorder, fanout: MediaFanout,
         makeSetup: @escaping (_ offer: String?) -> CallSetupDriver) {
        self.loop = loop
        self.settings = settings
        self.makeSetup = makeSetup
        texts = StampedMessages(loop: loop, recorder: recorder, id: settings.id)
        life = MediaPeerLifecycle(loop: loop, recorder: recorder,
                                  call: MediaCall(loop: loop, recorder: recorder, fanout: fanout, media: settings.media),
                                  identity: .init(id: settings.id, group: settings.group, role: settings.role),
                                  setupTimeout: settings.setupTimeout, remote: "the server")
        life.plannedStop = settings.plannedStop
        life.call.dataChannels = settings.data.map {
            DataChannelCall(loop: loop, recorder: recorder, data: $0, echoesInFigures: true, plannedStop: settings.plannedStop,
                            subscriber: settings.role == PeerGroup.Role.player.rawValue)
        }
        // The teardown (DELETE, Janus hangup/detach/destroy) goes on after the record.
        life.onEnd = { [weak self] record in
            guard let self else { return }
            record.phases.merge(self.timings) { _, timed in timed }
            if let action = self.iceRestartAction, let restart = self.call.peer?.iceRestart {
                record.phases.merge(restart.phases(since: action)) { _, restarted in restarted }
            }
            self.texts.stop()
            if let conference = self.conference {
                record.conference = conference.log(loggedOut: record.outcome != .failed)
                if self.settings.textInterval != nil, record.conference != nil { record.messages = self.texts.counts(room: conference.roomID) }
            }
            self.setup?.hangUp()
        }
        call.onLocalCandidate = { [weak self] candidate, mid in
            guard let self else { return }
            let index = self.call.peer?.sections.firstIndex { $0.mid == mid } ?? 0
            self.setup?.trickle(candidate.map { TrickleCandidate(mid: mid, mLineIndex: index, candidate: $0) })
        }
    }

    func apply(_ action: TimelineAction) {
        guard action.action == .iceRestart else { return call.apply(action) }
        // Our offer again with new credentials (RFC 8445 9), through the server's signaling.
        guard state == .connected, let peer = call.peer, peer.configuration.role == .offerer, peer.iceRestart?.isUnderWay != true else { return }
        iceRestartAction = loop.now()
        do {
            setup?.restartIce(offer: try peer.restartIce(now: loop.now()))
            call.drive()
        } catch {
            end(.failed, phase: "connected", reason: "cannot restart ICE: \(error)")
        }
    }

    func start() {
        guard life.begin() else { return }
        if settings.serverOffers {
            begin(makeSetup(nil))
            return
        }
        do {
            try call.start(role: .offerer, localAddress: settings.localAddress, impairment: settings.impairment,
                           ice: settings.ice, seed: settings.seed) { peer in
                self.begin(self.makeSetup(try peer.createOffer(now: self.loop.now())))
            }
        } catch {
            end(.failed, phase: "signaling", reason: "cannot set up the peer: \(error)")
        }
    }

    private func begin(_ host: CallSetupDriver) {
        host.onEvent = { [weak self] event in self?.setupEvent(event) }
        setup = host
        host.start()
    }

    func stop(interrupted: Bool) { life.stop(interrupted: interrupted) }

    private func setupEvent(_ event: CallSetupEvent) {
        let now = loop.now()
        switch event {
        case .answer(let sdp):
            do {
                try call.peer?.setRemoteAnswer(sdp, now: now)
                call.drive()
                if settings.endOfCandidatesAfterAnswer { setup?.trickle(nil) }
            } catch {
                end(.failed, phase: "signaling", reason: "the server's answer was refused: \(error)")
            }
        case .offer(let sdp):
            if call.peer != nil { return end(.failed, phase: "signaling", reason: "the server offered after our offer (406): not supported") }
            do {
                try call.start(role: .answerer, localAddress: settings.localAddress, impairment: settings.impairment,
                               ice: settings.ice, seed: settings.seed) { peer in
                    try peer.setRemoteOffer(sdp, now: now)
                    self.setup?.answer(try peer.createAnswer(now: now))
                }
            } catch {
                end(.failed, phase: "signaling", reason: "the server's offer was refused: \(error)")
            }
        case .failed(let error):
            end(.failed, phase: state == .connected ? "connected" : "signaling", reason: error.description)
        case .timing(let name, let milliseconds):
            timings[name] = milliseconds
        case .conference(let event):
            note(event)
        case .iceRestarted(let sdp):
            do {
                try call.peer?.applyIceRestartAnswer(sdp, now: now)
                call.drive()
                if settings.endOfCandidatesAfterAnswer { setup?.trickle(nil) }
            } catch {
                end(.failed, phase: "connected", reason: "the server's ICE restart answer was refused: \(error)")
            }
        case .iceServers, .notice, .closed:
            break
        }
    }

    /// What the OWT portal said of the conference: noted; texts start once logged in.
    private func note(_ event: OWTPortalEvent) {
        let watch = conference ?? OWTConferenceWatch(loop: loop, publishes: settings.role == "publisher")
        conference = watch
        watch.note(event)
        switch event {
        case .joined:
            guard let interval = settings.textInterval else { return }
            texts.start(every: interval) { [weak self] body in self?.setup?.sendText(body.serialized) }
        case .text(_, _, let message):
            texts.received(try? JSONValue(parsing: message))
        default:
            break
        }
    }

    private func end(_ outcome: PeerRecord.Outcome, phase: String?, reason: String?) {
        life.end(outcome, phase: phase, reason: reason)
    }
}
