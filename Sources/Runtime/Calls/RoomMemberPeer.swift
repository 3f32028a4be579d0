import EventLoop
import Report
import RTCBase
import Signaling

/// A room member without media, for signaling stress (role `member`): it connects, joins
/// its room, and from then on sends one timestamped message a second to the others, with
/// its id and a sequence number. It measures `join_ms` (join sent -> `joined`), `relay_ms`
/// (a message's send time in another member -> its arrival here; one machine shares the
/// monotonic clock) and the messages it sent, received, lost and got twice
/// (`RoomMessageCounts`), and ends with `leave`. A refused join, a lost connection or a
/// silent server ends it as failed with the reason.
public final class RoomMemberPeer: PeerDriver {
    public struct Settings: Sendable {
        public var signaling: RoomAccess
        public var room: String
        public var id: String
        public var group: Int
        public var seed: UInt64
        /// How long a join may take before the peer gives up.
        public var joinTimeout: Duration = .seconds(10)
        public var messageInterval: Duration = .seconds(1)
    }

    public private(set) var state: PeerLifecycle = .waiting
    private let loop: EventLoop
    private let settings: Settings
    private let recorder: RunRecorder
    private var client: RoomClientStream?
    private var startedAt: Instant?
    private var joinSentAt: Instant?
    private var phases: [String: Double] = [:]
    private var timers: [TimerID] = []
    private var sequence = 0
    private var tally = RoomMessageTally()

    public init(loop: EventLoop, settings: Settings, recorder: RunRecorder) {
        self.loop = loop
        self.settings = settings
        self.recorder = recorder
    }

    public func start() {
        guard state == .waiting else { return }
        state = .connecting
        startedAt = loop.now()
        client = settings.signaling.connect(loop: loop, seed: settings.seed) { [weak self] event in self?.handle(event) }
        guard state == .connecting else { return }
        timers.append(loop.schedule(after: settings.joinTimeout) { [weak self] in
            guard let self, self.state == .connecting else { return }
            self.end(.failed, phase: "signaling", reason: "no answer to join within \(self.settings.joinTimeout)")
        })
    }

    public func stop(interrupted: Bool) {
        switch state {
        case .waiting:
            state = .ended(.interrupted)
        case .connecting, .connected:
            if state == .connected { client?.send(.leave(room: settings.room)) }
            end(interrupted ? .interrupted : (state == .connected ? .completed : .failed),
                phase: state == .connected ? nil : "signaling",
                reason: state == .connected ? nil : "still joining at its planned end")
        case .ended:
            return
        }
    }

    private func handle(_ event: RoomClient.Event) {
        let now = loop.now()
        switch event {
        case .ready:
            joinSentAt = now
            client?.send(.join(room: settings.room))
        case .message(.joined(let room, _)) where room == settings.room:
            guard state == .connecting, let sent = joinSentAt, let started = startedAt else { return }
            state = .connected
            phases["join_ms"] = now.milliseconds(since: sent)
            phases["signaling_ms"] = now.milliseconds(since: started)
            scheduleMessages()
        case .message(.full(let room, _)) where room == settings.room:
            end(.failed, phase: "signaling", reason: "room \(room) is full")
        case .message(.message(let room, let data)) where room == settings.room:
            if let sender = data["from"]?.stringValue, let number = data["seq"]?.integerValue {
                tally.receive(from: sender, sequence: Int(number))
            }
            if let sentAt = data["t"]?.integerValue {
                recorder.record(Double(now.nanoseconds - sentAt) / 1e6, in: .relayMs)
            }
        case .message(.error(let code, let message)):
            if state == .connecting { end(.failed, phase: "signaling", reason: "server refused: \(code): \(message)") }
        case .message:
            break
        case .closed(let reason):
            if case .ended = state { return }
            // A member has no media: after its join it can only lose the room (phase `connected`).
            end(.failed, phase: state == .connected ? "connected" : "signaling",
                reason: "\(reason) at \(String(format: "%.1f", recorder.offset(now) / 1000)) s")
        }
    }

    private func scheduleMessages() {
        timers.append(loop.schedule(after: settings.messageInterval) { [weak self] in
            guard let self, self.state == .connected else { return }
            self.sequence += 1
            let data: JSONValue = .object([
                "type": "ping", "from": .string(self.settings.id), "seq": .integer(Int64(self.sequence)),
                "t": .integer(self.loop.now().nanoseconds),
            ])
            self.client?.send(.message(room: self.settings.room, data: data))
            self.scheduleMessages()
        })
    }

    private func end(_ outcome: PeerRecord.Outcome, phase: String?, reason: String?) {
        if case .ended = state { return }
        state = .ended(outcome)
        timers.forEach(loop.cancel)
        timers = []
        client?.close()
        client = nil
        let now = loop.now()
        var record = PeerRecord(id: settings.id, group: settings.group, role: "member",
                                startedAtMs: startedAt.map(recorder.offset) ?? recorder.offset(now),
                                endedAtMs: recorder.offset(now), phases: phases, outcome: outcome,
                                failedPhase: outcome == .failed ? phase : nil, failureReason: reason)
        if phases["join_ms"] != nil { record.messages = tally.counts(room: settings.room, sent: sequence) }
        recorder.finish(record)
    }
}
