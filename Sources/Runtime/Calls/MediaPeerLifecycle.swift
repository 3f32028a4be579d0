import EventLoop
import PeerCore
import Report
import RTCBase

/// The life every media driver shares, whatever its signaling: waiting, connecting
/// (bounded by a setup timeout), connected once ICE and DTLS are up (and failed when a kind
/// it receives has not arrived within the receive timeout, or by its end), then ended exactly
/// once with its record: the phases and streams of its `MediaCall`, the outcome, and the
/// phase and reason of a failure. Drivers add their own teardown and phases in `onEnd`.
final class MediaPeerLifecycle {
    struct Identity {
        var id: String
        var group: Int
        var role: String
    }

    private(set) var state: PeerLifecycle = .waiting
    private(set) var startedAt: Instant?
    /// When there was someone to call, if that was after the start (a pair's partner that
    /// joined the room later): `setup_ms` counts from then.
    private(set) var partnerArrivedAt: Instant?
    let call: MediaCall
    private let loop: EventLoop
    private let recorder: RunRecorder
    private let identity: Identity
    private let setupTimeout: Duration
    private var setupTimer: TimerID?
    private var receiveTimer: TimerID?
    private var lossTimer: TimerID?
    /// From then on the other side closing the call is its planned end, not a failure: both
    /// sides of a pair stop at the same planned time, and the first to act closes the call
    /// (the two may sit in different worker processes, a few milliseconds apart).
    var remoteEndExpected: Instant?
    /// When the plan stops the peer. A planned end judges a lost connection as of then, not
    /// of the moment the loop got to it: a loop busy with the peers stopped before this one
    /// (a sampled stream's decode results) must not make its media look stopped.
    var plannedStop: Instant?
    /// The signaling connection ended while connected (first time only).
    private var signalingLost: (atMs: Double, reason: String)?
    /// Runs once as the peer ends, before the record is kept: the driver's own phases and
    /// figures, its teardown.
    var onEnd: (_ record: inout PeerRecord) -> Void = { _ in }

    /// `remote` names the other end in failure reasons ("the other side", "the server").
    init(loop: EventLoop, recorder: RunRecorder, call: MediaCall, identity: Identity, setupTimeout: Duration, remote: String) {
        self.loop = loop
        self.recorder = recorder
        self.call = call
        self.identity = identity
        self.setupTimeout = setupTimeout
        call.onConnected = { [weak self] in
            guard let self, self.state == .connecting else { return }
            self.state = .connected
            if let setupTimer = self.setupTimer { self.loop.cancel(setupTimer) }
            let timeout = call.media.receiveTimeout
            self.receiveTimer = self.loop.schedule(after: timeout) { [weak self] in
                guard let self, self.state == .connected, let missing = self.nothingReceived else { return }
                self.end(.failed, phase: "media", reason: "\(missing) within \(timeout) of setup")
            }
            if call.media.endsWhenLost { self.watchForLoss() }
            if let peer = call.peer, let refused = call.dataChannels?.refusal(of: peer) {
                self.end(.failed, phase: "data", reason: refused)
            }
        }
        call.onFailed = { [weak self] failure in
            guard let self else { return }
            self.end(.failed, phase: failure.phase.rawValue,
                     reason: "\(failure.reason) at \(String(format: "%.1f", self.recorder.offset(self.loop.now()) / 1000)) s")
        }
        call.onRemoteClosed = { [weak self] in
            guard let self else { return }
            if let expected = self.remoteEndExpected, self.loop.now() >= expected {
                self.complete()
            } else {
                self.end(.failed, phase: "connected", reason: "\(remote) closed the call (DTLS close_notify)")
            }
        }
    }

    /// "no video received" (or audio, or both) when a kind the call receives has not
    /// arrived; nil when everything expected came.
    private var nothingReceived: String? {
        let missing = call.kindsNotReceived
        return missing.isEmpty ? nil : missing.map { "no \($0) received" }.joined(separator: " and ")
    }

    /// A planned end: completed, unless what it should have received never came, its video
    /// never had the expected size, or the connection was lost on the way.
    private func complete() {
        if let missing = nothingReceived {
            end(.failed, phase: "media", reason: "\(missing) by its planned end")
        } else if let unopened = call.dataChannels?.notOpened {
            end(.failed, phase: "data", reason: "\(unopened) by its planned end")
        } else if let wrongSize = call.videoNeverAtExpectedSize {
            end(.failed, phase: "media", reason: wrongSize)
        } else if let lost = call.connectionLost(now: plannedStop.map { min(loop.now(), $0) } ?? loop.now()) {
            end(.failed, phase: "connected", reason: "\(lost) at its planned end")
        } else {
            end(.completed, phase: nil, reason: nil)
        }
    }

    /// Every second while connected: a lost connection ends the peer at once.
    private func watchForLoss() {
        lossTimer = loop.schedule(after: .seconds(1)) { [weak self] in
            guard let self, self.state == .connected else { return }
            if let lost = self.call.connectionLost(now: self.loop.now()) {
                self.end(.failed, phase: "connected", reason: "\(lost) at \(String(format: "%.1f", self.recorder.offset(self.loop.now()) / 1000)) s")
            } else {
                self.watchForLoss()
            }
        }
    }

    /// The phase a peer that never connected failed in.
    var settingUpPhase: String { call.peer?.remoteDescription == nil ? "signaling" : "ice" }

    /// Starts connecting; the setup timeout ends a peer that does not get there.
    func begin() -> Bool {
        guard state == .waiting else { return false }
        state = .connecting
        startedAt = loop.now()
        armSetupTimeout()
        return true
    }

    /// The partner is there from `now` on: the setup clock and the setup timeout start
    /// again from it, so a wait for somebody to join is not counted as setup.
    func partnerArrived() {
        guard state == .connecting, let startedAt else { return }
        let now = loop.now()
        partnerArrivedAt = now > startedAt ? now : nil
        if let setupTimer { loop.cancel(setupTimer) }
        armSetupTimeout()
    }

    private func armSetupTimeout() {
        setupTimer = loop.schedule(after: setupTimeout) { [weak self] in
            guard let self, self.state == .connecting else { return }
            self.end(.failed, phase: self.settingUpPhase, reason: "not connected within \(self.setupTimeout)")
        }
    }

    func stop(interrupted: Bool) {
        switch state {
        case .waiting:
            state = .ended(.interrupted)
        case .connecting:
            end(interrupted ? .interrupted : .failed, phase: settingUpPhase,
                reason: interrupted ? nil : "still setting up at its planned end")
        case .connected:
            if interrupted { end(.interrupted, phase: nil, reason: nil) } else { complete() }
        case .ended:
            return
        }
    }

    /// Records that signaling ended mid-call; the call itself goes on, and the record (and
    /// the report's warnings) say so.
    func noteSignalingLost(_ reason: String) {
        guard state == .connected, signalingLost == nil else { return }
        signalingLost = (recorder.offset(loop.now()), reason)
    }

    func end(_ outcome: PeerRecord.Outcome, phase: String?, reason: String?) {
        if case .ended = state { return }
        state = .ended(outcome)
        if let setupTimer { loop.cancel(setupTimer) }
        if let receiveTimer { loop.cancel(receiveTimer) }
        if let lossTimer { loop.cancel(lossTimer) }
        let now = loop.now()
        let (phases, streams, sent, pair) = call.finish(setupFrom: partnerArrivedAt ?? startedAt)
        var record = PeerRecord(id: identity.id, group: identity.group, role: identity.role,
                                startedAtMs: startedAt.map(recorder.offset) ?? recorder.offset(now),
                                endedAtMs: recorder.offset(now), phases: phases, outcome: outcome,
                                failedPhase: outcome == .failed ? phase : nil, failureReason: reason,
                                candidatePair: pair, streams: streams, sentStreams: sent.isEmpty ? nil : sent)
        record.signalingLostAtMs = signalingLost?.atMs
        record.signalingLostReason = signalingLost?.reason
        record.series = call.series.seconds.isEmpty ? nil : call.series.seconds
        record.dataChannels = call.dataRecords
        onEnd(&record)
        recorder.finish(record)
    }
}
