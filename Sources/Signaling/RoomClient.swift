import Net
import RTCBase

/// A client of the room protocol (PROTOCOLS.md section 3) over one TCP connection, as a
/// sans-IO state machine: the WebSocket upgrade, then Socket.IO (`/socket.io/`) or plain
/// JSON frames, then room messages both ways.
///
/// It follows the seed client's states per room: `leaved` -> `joined` -> `joined_conn`
/// (the other member is there) -> `joined_unbind` (the other left) -> `leaved`.
public struct RoomClient: ConnectionMachine, Sendable {
    public enum Transport: String, Sendable { case socketIO = "socketio", webSocket = "websocket" }

    public enum RoomState: String, Sendable {
        case leaved
        case joined
        case joinedConnected = "joined_conn"
        case joinedUnbound = "joined_unbind"
    }

    public enum Event: Hashable, Sendable {
        /// Connected and able to send; Socket.IO says the member id here, plain WebSocket
        /// servers say it with `joined`.
        case ready(memberID: String?)
        case message(RoomMessage)
        /// The connection is over, with why (the server's words where there are some).
        case closed(reason: String)
    }

    public let transport: Transport
    public let names: RoomEventNames
    /// The server's address (TLS for `https`/`wss` room URLs).
    public let destination: StreamDestination
    /// We closed, or the connection is over: the host closes TCP once the last bytes are out.
    public private(set) var isClosed = false
    public private(set) var rooms: [String: RoomState] = [:]
    public private(set) var memberID: String?
    public private(set) var isReady = false
    private var socket: WebSocketClient
    private var pending: [RoomMessage] = []
    private var events = FIFO<Event>()

    /// `endpoint` is the server (`http://127.0.0.1:3000`); the path is the protocol's.
    public init(endpoint: Endpoint, transport: Transport, names: RoomEventNames = RoomEventNames(), seed: UInt64) {
        self.transport = transport
        self.names = names
        destination = endpoint.streamDestination
        switch transport {
        case .socketIO:
            socket = .socketIO(server: endpoint, session: SocketIOClientSession(), seed: seed)
        case .webSocket:
            var target = endpoint
            target.scheme = endpoint.scheme.isSecure ? .wss : .ws
            if target.path == "/" { target.path = "/ws" }
            socket = WebSocketClient(endpoint: target, session: nil, seed: seed)
        }
    }

    /// Sends a message now, or as soon as the connection is ready.
    public mutating func send(_ message: RoomMessage, now: Instant) {
        guard isReady else {
            pending.append(message)
            return
        }
        switch transport {
        case .socketIO: socket.emit(message.eventName(names), message.socketIOArguments, now: now)
        case .webSocket: socket.send(text: message.plainJSON(names).serialized)
        }
    }

    public mutating func handle(_ bytes: [UInt8], now: Instant) {
        socket.handle(bytes, now: now)
        process(now: now)
    }

    /// The server closed the TCP connection.
    public mutating func handleEOF(now: Instant) {
        socket.handleEOF(now: now)
        process(now: now)
        socket.connectionFailed("signaling connection closed")
        process(now: now)
    }

    /// The connection could not be made, or broke.
    public mutating func connectionFailed(_ reason: String, now: Instant) {
        socket.connectionFailed(reason)
        process(now: now)
    }

    public func pollTimeout() -> Instant? { socket.pollTimeout() }

    public mutating func handleTimeout(now: Instant) {
        socket.handleTimeout(now: now)
        process(now: now)
    }

    public mutating func pollTransmit() -> [UInt8]? { socket.pollTransmit() }

    public mutating func pollEvent() -> Event? { events.popFirst() }

    /// Closes the WebSocket politely (the host closes TCP once it has sent this).
    public mutating func close(now: Instant) {
        isClosed = true
        socket.close(now: now)
        process(now: now)
    }

    // MARK: Inside

    private mutating func process(now: Instant) {
        while let event = socket.pollEvent() {
            switch event {
            case .opened(let socketID):
                becomeReady(memberID: socketID, now: now)
            case .text(let text):
                if let value = try? JSONValue(parsing: text), let message = RoomMessage(plainJSON: value, names: names) { receive(message) }
            case .event(let message):
                if let name = message.name, let roomMessage = RoomMessage(socketIOEvent: name, arguments: message.args, names: names) {
                    receive(roomMessage)
                }
            case .ack:
                break
            case .closed(let reason):
                isClosed = true
                isReady = false
                events.append(.closed(reason: reason))
            }
        }
    }

    private mutating func becomeReady(memberID: String?, now: Instant) {
        isReady = true
        self.memberID = memberID ?? self.memberID
        events.append(.ready(memberID: memberID))
        let queued = pending
        pending = []
        for message in queued { send(message, now: now) }
    }

    /// Follows the seed client's per-room states and reports the message.
    private mutating func receive(_ message: RoomMessage) {
        switch message {
        case .joined(let room, let id):
            rooms[room] = .joined
            if memberID == nil { memberID = id }
        case .otherJoined(let room, _):
            rooms[room] = .joinedConnected
        case .message(let room, _):
            if rooms[room] == .joined || rooms[room] == .joinedUnbound { rooms[room] = .joinedConnected }
        case .bye(let room, _):
            if rooms[room] != nil { rooms[room] = .joinedUnbound }
        case .leaved(let room, _), .full(let room, _):
            rooms[room] = .leaved
        default:
            break
        }
        events.append(.message(message))
    }
}
