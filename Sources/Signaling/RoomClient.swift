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

    private enum Phase: Sendable {
        case handshake(WebSocketClientHandshake)
        case open(WebSocketConnection)
        case closed
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
    private var phase: Phase
    private var session: SocketIOClientSession?
    private var pending: [RoomMessage] = []
    private var events = FIFO<Event>()
    private var output: [UInt8] = []
    private let maskSeed: UInt64

    /// `endpoint` is the server (`http://127.0.0.1:3000`); the path is the protocol's.
    public init(endpoint: Endpoint, transport: Transport, names: RoomEventNames = RoomEventNames(), seed: UInt64) {
        self.transport = transport
        self.names = names
        destination = endpoint.streamDestination
        var generator = SeededGenerator(seed: seed)
        maskSeed = generator.next()
        var target = endpoint
        target.scheme = endpoint.scheme.isSecure ? .wss : .ws
        switch transport {
        case .socketIO:
            target.path = "/socket.io/"
            target.query = "EIO=4&transport=websocket"
            session = SocketIOClientSession()
        case .webSocket:
            if target.path == "/" { target.path = "/ws" }
        }
        phase = .handshake(WebSocketClientHandshake(endpoint: target, generator: &generator))
    }

    /// Sends a message now, or as soon as the connection is ready.
    public mutating func send(_ message: RoomMessage, now: Instant) {
        guard isReady else {
            pending.append(message)
            return
        }
        guard case .open(var socket) = phase else { return }
        if session != nil {
            session?.emit(message.eventName(names), message.socketIOArguments)
            flushSession(&socket, now: now)
        } else {
            socket.send(text: message.plainJSON(names).serialized)
        }
        phase = .open(socket)
        drainSocket()
    }

    public mutating func handle(_ bytes: [UInt8], now: Instant) {
        switch phase {
        case .handshake(var handshake):
            guard let outcome = handshake.handle(bytes) else {
                phase = .handshake(handshake)
                return
            }
            switch outcome {
            case .accepted(_, let remaining):
                phase = .open(WebSocketConnection(role: .client, maskSeed: maskSeed))
                if transport == .webSocket { becomeReady(memberID: nil, now: now) }
                if !remaining.isEmpty { handle(remaining, now: now) }
            case .rejected(let error):
                finish("WebSocket upgrade refused: \(error)")
            }
        case .open(var socket):
            socket.handle(bytes, now: now)
            phase = .open(socket)
            processSocket(now: now)
        case .closed:
            return
        }
    }

    /// The server closed the TCP connection.
    public mutating func handleEOF(now: Instant) {
        switch phase {
        case .handshake(var handshake):
            if case .rejected(let error) = handshake.handleEOF() { finish("\(error)") }
        case .open(var socket):
            socket.handleEOF()
            phase = .open(socket)
            processSocket(now: now)
            finish("connection closed by the server")
        case .closed:
            return
        }
        finish("signaling connection closed")
    }

    /// The connection could not be made, or broke.
    public mutating func connectionFailed(_ reason: String, now: Instant) { finish(reason) }

    public func pollTimeout() -> Instant? {
        guard case .open(let socket) = phase else { return nil }
        return [socket.pollTimeout(), session?.pollTimeout()].compactMap { $0 }.min()
    }

    public mutating func handleTimeout(now: Instant) {
        guard case .open(var socket) = phase else { return }
        socket.handleTimeout(now: now)
        session?.handleTimeout(now: now)
        phase = .open(socket)
        processSocket(now: now)
    }

    public mutating func pollTransmit() -> [UInt8]? {
        if case .handshake(var handshake) = phase, let request = handshake.pollTransmit() {
            phase = .handshake(handshake)
            output.append(contentsOf: request)
        }
        guard !output.isEmpty else { return nil }
        defer { output = [] }
        return output
    }

    public mutating func pollEvent() -> Event? { events.popFirst() }

    /// Closes the WebSocket politely (the host closes TCP once it has sent this).
    public mutating func close(now: Instant) {
        isClosed = true
        guard case .open(var socket) = phase else { return finish("closed by us") }
        socket.close(code: 1000, reason: "bye", now: now)
        phase = .open(socket)
        drainSocket()
    }

    // MARK: Inside

    private mutating func processSocket(now: Instant) {
        guard case .open(var socket) = phase else { return }
        while let event = socket.pollEvent() {
            switch event {
            case .text(let text):
                if session != nil {
                    session?.handle(.text(text), now: now)
                } else if let value = try? JSONValue(parsing: text), let message = RoomMessage(plainJSON: value, names: names) {
                    receive(message)
                }
            case .binary(let bytes):
                session?.handle(.binary(bytes), now: now)
            case .pong:
                break
            case .closed(let code, let reason, let byPeer):
                events.append(.closed(reason: "WebSocket closed \(byPeer ? "by the server" : "by us") with \(code)\(reason.isEmpty ? "" : " \(reason)")"))
                phase = .closed
            }
        }
        while let event = session?.pollEvent() {
            switch event {
            case .connected(let socketID):
                becomeReady(memberID: socketID, now: now)
            case .event(let message):
                if let name = message.name, let roomMessage = RoomMessage(socketIOEvent: name, arguments: message.args, names: names) {
                    receive(roomMessage)
                }
            case .connectFailed(let body):
                finish("Socket.IO namespace refused: \(body.serialized)")
            case .disconnected(let reason):
                finish("Socket.IO session ended: \(reason)")
            case .opened, .ack:
                break
            }
        }
        if case .closed = phase { return drainSocket(socket) }
        flushSession(&socket, now: now)
        phase = .open(socket)
        drainSocket()
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

    private mutating func flushSession(_ socket: inout WebSocketConnection, now: Instant) {
        while let output = session?.pollOutput() { socket.perform(output, now: now) }
    }

    private mutating func drainSocket() {
        guard case .open(var socket) = phase else { return }
        while let bytes = socket.pollTransmit() { output.append(contentsOf: bytes) }
        phase = .open(socket)
    }

    private mutating func drainSocket(_ socket: WebSocketConnection) {
        var socket = socket
        while let bytes = socket.pollTransmit() { output.append(contentsOf: bytes) }
    }

    private mutating func finish(_ reason: String) {
        if case .closed = phase { return }
        phase = .closed
        isClosed = true
        isReady = false
        events.append(.closed(reason: reason))
    }
}
