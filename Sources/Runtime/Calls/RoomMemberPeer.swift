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

    public var state: PeerLifecycle { life.state }
    private let loop: EventLoop
    private let settings: Settings
    private let life: MemberLife
    private var client: RoomClientStream?
    private var joinSentAt: Instant?

    public init(loop: EventLoop, settings: Settings, recorder: RunRecorder) {
        self.loop = loop
        self.settings = settings
        life = MemberLife(loop: loop, recorder: recorder, id: settings.id, group: settings.group)
        life.onEnd = { [weak self] joined in
            guard let self else { return }
            if joined { self.client?.send(.leave(room: self.settings.room)) }
            self.client?.close()
            self.client = nil
        }
    }

    public func start() {
        guard life.begin(timeout: settings.joinTimeout, reason: "no answer to join within \(settings.joinTimeout)") else { return }
        client = settings.signaling.connect(loop: loop, seed: settings.seed) { [weak self] event in self?.handle(event) }
    }

    public func stop(interrupted: Bool) {
        life.stop(interrupted: interrupted, stillJoining: "still joining at its planned end", room: settings.room)
    }

    private func handle(_ event: RoomClient.Event) {
        let now = loop.now()
        switch event {
        case .ready:
            joinSentAt = now
            client?.send(.join(room: settings.room))
        case .message(.joined(let room, _)) where room == settings.room:
            guard state == .connecting, let sent = joinSentAt else { return }
            life.phases["join_ms"] = now.milliseconds(since: sent)
            life.joined(every: settings.messageInterval) { [weak self] data in
                guard let self else { return }
                self.client?.send(.message(room: self.settings.room, data: data))
            }
        case .message(.full(let room, _)) where room == settings.room:
            life.end(.failed, phase: "signaling", reason: "room \(room) is full")
        case .message(.message(let room, let data)) where room == settings.room:
            life.received(data)
        case .message(.otherJoined(let room, _)) where room == settings.room && state == .connected:
            life.othersJoined += 1
        case .message(.bye(let room, _)) where room == settings.room && state == .connected:
            life.othersLeft += 1
        case .message(.error(let code, let message)):
            if state == .connecting { life.end(.failed, phase: "signaling", reason: "server refused: \(code): \(message)") }
        case .message:
            break
        case .closed(let reason):
            life.lost(reason, room: settings.room)
        }
    }
}
