import EventLoop
import Report
import RTCBase

/// The life every member without media shares (a room member, an OWT participant): it
/// starts, joins within a timeout or fails, sends its `StampedMessages` while joined and
/// counts and times the others', and ends once with its record.
final class MemberLife {
    private(set) var state: PeerLifecycle = .waiting
    var phases: [String: Double] = [:]
    private(set) var startedAt: Instant?
    private let loop: EventLoop
    private let recorder: RunRecorder
    private let id: String
    private let group: Int
    private var timers: [TimerID] = []
    private let messages: StampedMessages
    /// Added to the record as it ends (an OWT participant's `ConferenceLog`).
    var finishRecord: (inout PeerRecord) -> Void = { _ in }
    /// Others that joined (`other_joined`) and left (`bye`) the room while joined.
    var othersJoined = 0
    var othersLeft = 0
    /// Closes the connection; told whether the member had joined (to leave or log out first).
    var onEnd: (_ joined: Bool) -> Void = { _ in }

    init(loop: EventLoop, recorder: RunRecorder, id: String, group: Int) {
        self.loop = loop
        self.recorder = recorder
        self.id = id
        self.group = group
        messages = StampedMessages(loop: loop, recorder: recorder, id: id)
    }

    /// Starts connecting; it fails with `reason` unless joined within `timeout`. False when
    /// it had started already.
    func begin(timeout: Duration, reason: String) -> Bool {
        guard state == .waiting else { return false }
        state = .connecting
        startedAt = loop.now()
        timers.append(loop.schedule(after: timeout) { [weak self] in
            guard let self, self.state == .connecting else { return }
            self.end(.failed, phase: "signaling", reason: reason)
        })
        return true
    }

    /// Joined: `signaling_ms` is measured, and `send` gets a stamped message every `interval`.
    func joined(every interval: Duration?, send: @escaping (JSONValue) -> Void) {
        guard state == .connecting, let startedAt else { return }
        state = .connected
        phases["signaling_ms"] = loop.now().milliseconds(since: startedAt)
        if let interval { messages.start(every: interval, send) }
    }

    /// Another member's stamped message.
    func received(_ body: JSONValue?) { messages.received(body) }

    /// The planned end (or an interrupt): completed when joined, failed with `stillJoining` when not.
    func stop(interrupted: Bool, stillJoining: String, room: String) {
        switch state {
        case .waiting:
            state = .ended(.interrupted)
        case .connecting:
            end(interrupted ? .interrupted : .failed, phase: "signaling", reason: stillJoining, room: room)
        case .connected:
            end(interrupted ? .interrupted : .completed, phase: nil, reason: nil, room: room)
        case .ended:
            return
        }
    }

    /// The connection ended, with why: failed in phase `connected` once joined (a member can
    /// only lose its room then), `signaling` before.
    func lost(_ reason: String, room: String) {
        if case .ended = state { return }
        end(.failed, phase: state == .connected ? "connected" : "signaling",
            reason: "\(reason) at \(String(format: "%.1f", recorder.offset(loop.now()) / 1000)) s", room: room)
    }

    /// Ends it once: timers stop, the connection closes, the record is kept (with the
    /// message counts under `room` when it had joined).
    func end(_ outcome: PeerRecord.Outcome, phase: String?, reason: String?, room: String = "") {
        if case .ended = state { return }
        let wasJoined = state == .connected
        state = .ended(outcome)
        timers.forEach(loop.cancel)
        timers = []
        messages.stop()
        onEnd(wasJoined)
        let now = loop.now()
        var record = PeerRecord(id: id, group: group, role: "member", startedAtMs: startedAt.map(recorder.offset) ?? recorder.offset(now),
                                endedAtMs: recorder.offset(now), phases: phases, outcome: outcome,
                                failedPhase: outcome == .failed ? phase : nil, failureReason: reason)
        if wasJoined {
            record.messages = messages.counts(room: room)
            (record.othersJoined, record.othersLeft) = (othersJoined, othersLeft)
        }
        finishRecord(&record)
        recorder.finish(record)
    }
}
