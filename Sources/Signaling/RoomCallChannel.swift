import Net
import RTCBase

/// A peer-to-peer call through a room server (PROTOCOLS.md section 3): joins `room` once
/// connected, is told `other_joined` when the partner comes after it (then it offers), and
/// sends and receives `P2PSignal`s as the room's `message` data.
public struct RoomCallChannel: CallChannel {
    public private(set) var connection: SingleConnection<RoomClient>
    public let room: String
    private var events = FIFO<CallChannelEvent>()

    public init(client: RoomClient, room: String) {
        connection = SingleConnection(client)
        self.room = room
    }

    public var client: RoomClient { connection.machine }

    public mutating func send(_ signal: P2PSignal, now: Instant) {
        connection.machine.send(.message(room: room, data: signal.json), now: now)
        translate(now: now)
    }

    public mutating func leave(now: Instant) {
        connection.machine.send(.leave(room: room), now: now)
        connection.machine.close(now: now)
        translate(now: now)
    }

    public mutating func handle(_ input: StreamInput, now: Instant) {
        connection.handle(input, now: now)
        translate(now: now)
    }

    public mutating func handleTimeout(now: Instant) {
        connection.handleTimeout(now: now)
        translate(now: now)
    }

    public mutating func pollTransmit() -> StreamOutput? { connection.pollTransmit() }
    public mutating func pollEvent() -> CallChannelEvent? { events.popFirst() }
    public func pollTimeout() -> Instant? { connection.pollTimeout() }

    /// The room's events for this room, in the call's terms.
    private mutating func translate(now: Instant) {
        while let event = connection.pollEvent() {
            switch event {
            case .ready:
                connection.machine.send(.join(room: room), now: now)
                events.append(.connected)
            case .message(.joined(let room, _)) where room == self.room: events.append(.joined)
            case .message(.otherJoined(let room, _)) where room == self.room: events.append(.partnerArrived)
            case .message(.message(let room, let data)) where room == self.room:
                if let signal = P2PSignal(data) { events.append(.signal(signal)) }
            case .message(.full(let room, _)) where room == self.room: events.append(.refused("room \(room) is full"))
            case .message(.bye(let room, _)) where room == self.room: events.append(.partnerLeft)
            case .message: break
            case .closed(let reason): events.append(.closed(reason: reason))
            }
        }
    }
}
