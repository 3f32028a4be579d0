import EventLoop
import PeerCore
import Report
import RTCBase

/// The life every media driver shares, whatever its signaling: waiting, connecting
/// (bounded by a setup timeout), connected once ICE and DTLS are up, then ended exactly
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
    let call: MediaCall
    private let loop: EventLoop
    private let recorder: RunRecorder
    private let identity: Identity
    private let setupTimeout: Duration
    private var setupTimer: TimerID?
    /// From then on the other side closing the call is its planned end, not a failure: both
    /// sides of a pair stop at the same planned time, and the first to act closes the call
    /// (the two may sit in different worker processes, a few milliseconds apart).
    var remoteEndExpected: Instant?
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
        }
        call.onFailed = { [weak self] failure in
            guard let self else { return }
            self.end(.failed, phase: failure.phase.rawValue,
                     reason: "\(failure.reason) at \(String(format: "%.1f", self.recorder.offset(self.loop.now()) / 1000)) s")
        }
        call.onRemoteClosed = { [weak self] in
            guard let self else { return }
            if let expected = self.remoteEndExpected, self.loop.now() >= expected {
                self.end(.completed, phase: nil, reason: nil)
            } else {
                self.end(.failed, phase: "connected", reason: "\(remote) closed the call (DTLS close_notify)")
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
        setupTimer = loop.schedule(after: setupTimeout) { [weak self] in
            guard let self, self.state == .connecting else { return }
            self.end(.failed, phase: self.settingUpPhase, reason: "not connected within \(self.setupTimeout)")
        }
        return true
    }

    func stop(interrupted: Bool) {
        switch state {
        case .waiting:
            state = .ended(.interrupted)
        case .connecting:
            end(interrupted ? .interrupted : .failed, phase: settingUpPhase,
                reason: interrupted ? nil : "still setting up at its planned end")
        case .connected:
            end(interrupted ? .interrupted : .completed, phase: nil, reason: nil)
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
        let now = loop.now()
        let (phases, streams, sent, pair) = call.finish(startedAt: startedAt)
        var record = PeerRecord(id: identity.id, group: identity.group, role: identity.role,
                                startedAtMs: startedAt.map(recorder.offset) ?? recorder.offset(now),
                                endedAtMs: recorder.offset(now), phases: phases, outcome: outcome,
                                failedPhase: outcome == .failed ? phase : nil, failureReason: reason,
                                candidatePair: pair, streams: streams, sentStreams: sent.isEmpty ? nil : sent)
        record.signalingLostAtMs = signalingLost?.atMs
        record.signalingLostReason = signalingLost?.reason
        onEnd(&record)
        recorder.finish(record)
    }
}
