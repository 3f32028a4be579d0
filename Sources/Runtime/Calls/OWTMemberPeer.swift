import EventLoop
import Net
import Report
import RTCBase
import Signaling

/// An OWT conference participant without media (role `member` on an `owt` target), for
/// the portal's signaling: it logs in (`login_ms`), then sends a timestamped `text` to
/// everyone `text_rate_per_s` times a second (none without it) and records each text it
/// receives as `relay_ms` (the sender's send time -> arrival here; one machine shares the
/// monotonic clock), and logs out at its planned end. A refused login or a lost connection
/// ends it as failed with the portal's words.
public final class OWTMemberPeer: PeerDriver {
    public struct Settings: Sendable {
        public var configuration: OWTPortalClient.Configuration
        public var tls: TLSClientContext?
        public var id: String
        public var group: Int
        /// Between two texts; nil: it sends none.
        public var textInterval: Duration?
        public var loginTimeout: Duration = .seconds(10)
    }

    public private(set) var state: PeerLifecycle = .waiting
    private let loop: EventLoop
    private let settings: Settings
    private let recorder: RunRecorder
    private var host: StreamHost<OWTPortalClient>?
    private var startedAt: Instant?
    private var phases: [String: Double] = [:]
    private var timers: [TimerID] = []
    private var sequence = 0
    private var tally = RoomMessageTally()
    /// The conference's room id, once joined (its messages are counted under it).
    private var roomID = ""

    public init(loop: EventLoop, settings: Settings, recorder: RunRecorder) {
        self.loop = loop
        self.settings = settings
        self.recorder = recorder
    }

    public func start() {
        guard state == .waiting else { return }
        state = .connecting
        startedAt = loop.now()
        let host = StreamHost(loop: loop, machine: OWTPortalClient(configuration: settings.configuration), tls: settings.tls)
        host.onEvent = { [weak self] event in self?.handle(event) }
        self.host = host
        host.run()
        guard state == .connecting else { return }
        timers.append(loop.schedule(after: settings.loginTimeout) { [weak self] in
            guard let self, self.state == .connecting else { return }
            self.end(.failed, phase: "signaling", reason: "OWT portal: no room info within \(self.settings.loginTimeout)")
        })
    }

    public func stop(interrupted: Bool) {
        switch state {
        case .waiting:
            state = .ended(.interrupted)
        case .connecting:
            end(interrupted ? .interrupted : .failed, phase: "signaling", reason: "still logging in at its planned end")
        case .connected:
            end(interrupted ? .interrupted : .completed, phase: nil, reason: nil)
        case .ended:
            return
        }
    }

    private func handle(_ event: OWTPortalEvent) {
        let now = loop.now()
        switch event {
        case .acknowledged("login", let milliseconds):
            phases["login_ms"] = milliseconds
        case .joined(let room):
            roomID = room.roomID
            guard state == .connecting, let started = startedAt else { return }
            state = .connected
            phases["signaling_ms"] = now.milliseconds(since: started)
            scheduleText()
        case .text(_, _, let message):
            let body = try? JSONValue(parsing: message)
            if let sender = body?["from"]?.stringValue, let number = body?["seq"]?.integerValue {
                tally.receive(from: sender, sequence: Int(number))
            }
            if let sentAt = body?["t"]?.integerValue {
                recorder.record(Double(now.nanoseconds - sentAt) / 1e6, in: .relayMs)
            }
        case .failed(let words):
            if case .ended = state { return }
            end(.failed, phase: state == .connected ? "connected" : "signaling",
                reason: "\(words) at \(String(format: "%.1f", recorder.offset(now) / 1000)) s")
        default:
            break
        }
    }

    private func scheduleText() {
        guard let interval = settings.textInterval else { return }
        timers.append(loop.schedule(after: interval) { [weak self] in
            guard let self, self.state == .connected else { return }
            self.sequence += 1
            let body: JSONValue = .object(["from": .string(self.settings.id), "seq": .integer(Int64(self.sequence)),
                                           "t": .integer(self.loop.now().nanoseconds)])
            self.host?.perform { $0.sendText(body.serialized, now: $1) }
            self.scheduleText()
        })
    }

    private func end(_ outcome: PeerRecord.Outcome, phase: String?, reason: String?) {
        if case .ended = state { return }
        let wasJoined = state == .connected
        state = .ended(outcome)
        timers.forEach(loop.cancel)
        timers = []
        if let host {
            // Logged in: log out and give the portal a moment to answer; else just drop.
            if wasJoined, host.machine.isJoined {
                host.perform { $0.logout(now: $1) }
                _ = loop.schedule(after: .seconds(2)) { host.stop() }
            } else {
                host.stop()
            }
        }
        host = nil
        let now = loop.now()
        var record = PeerRecord(id: settings.id, group: settings.group, role: "member",
                                startedAtMs: startedAt.map(recorder.offset) ?? recorder.offset(now),
                                endedAtMs: recorder.offset(now), phases: phases, outcome: outcome,
                                failedPhase: outcome == .failed ? phase : nil, failureReason: reason)
        if wasJoined { record.messages = tally.counts(room: roomID, sent: sequence) }
        recorder.finish(record)
    }
}
