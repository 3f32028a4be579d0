import EventLoop
import Report
import RTCBase

/// The stamped messages one participant sends to its room at a steady interval (its id, a
/// sequence number counting up from 1, its send time) and the others' it receives, counted
/// by sender (`RoomMessageTally`) and timed as `relay_ms` (the sender's send time to the
/// arrival here: the processes of one machine share the monotonic clock). Room members and
/// OWT participants of every role use it.
final class StampedMessages {
    private let loop: EventLoop
    private let recorder: RunRecorder
    private let id: String
    private var timer: TimerID?
    /// Once stopped (its record is made) it neither sends nor times what still arrives, so
    /// `relay_ms` counts exactly the messages the record counts.
    private var stopped = false
    private(set) var sent = 0
    private var tally = RoomMessageTally()

    init(loop: EventLoop, recorder: RunRecorder, id: String) {
        self.loop = loop
        self.recorder = recorder
        self.id = id
    }

    /// `send` gets a stamped message every `interval` until `stop()`.
    func start(every interval: Duration, _ send: @escaping (JSONValue) -> Void) {
        timer = loop.schedule(after: interval) { [weak self] in
            guard let self, self.timer != nil else { return }
            self.sent += 1
            send(.object(["type": "ping", "from": .string(self.id), "seq": .integer(Int64(self.sent)),
                          "t": .integer(self.loop.now().nanoseconds)]))
            self.start(every: interval, send)
        }
    }

    func stop() {
        stopped = true
        timer.map(loop.cancel)
        timer = nil
    }

    /// Another participant's stamped message (anything else, or anything after `stop()`, is ignored).
    func received(_ body: JSONValue?) {
        guard !stopped else { return }
        if let sender = body?["from"]?.stringValue, let number = body?["seq"]?.integerValue {
            tally.receive(from: sender, sequence: Int(number))
        }
        if let sentAt = body?["t"]?.integerValue { recorder.record(Double(loop.now().nanoseconds - sentAt) / 1e6, in: .relayMs) }
    }

    /// What it sent and received, under `room`.
    func counts(room: String) -> RoomMessageCounts { tally.counts(room: room, sent: sent) }
}
