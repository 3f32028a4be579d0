import RTCBase

/// One Socket.IO client session on one WebSocket on one byte stream, as a sans-IO
/// machine: the RFC 6455 opening handshake, then frames, then Engine.IO/Socket.IO
/// (either version `SocketIOClientSession` speaks). Bytes in, bytes out, Socket.IO
/// events up; the owner emits and acks through it.
public struct SocketIOWebSocketClient: Sendable {
    public enum Event: Hashable, Sendable {
        /// The namespace accepted us; emits flow from here on.
        case connected(socketID: String)
        /// An event from the server (answer `ackId` with `ack`).
        case event(SocketIOMessage)
        /// The answer to an emit that wanted one.
        case ack(SocketIOMessage)
        /// The session is over, with why; nothing more comes.
        case closed(reason: String)
    }

    private enum Phase: Sendable {
        case handshake(WebSocketClientHandshake)
        case open(WebSocketConnection)
        case closed
    }

    private var phase: Phase
    private var session: SocketIOClientSession
    private var events = FIFO<Event>()
    private var output: [UInt8] = []
    private let maskSeed: UInt64

    /// `server` is the Socket.IO server (`http://host:port`); the path is `/socket.io/`
    /// with the session's Engine.IO version in the query.
    public init(server: Endpoint, session: SocketIOClientSession, seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        maskSeed = generator.next()
        var target = server
        target.scheme = server.scheme.isSecure ? .wss : .ws
        target.path = "/socket.io/"
        target.query = session.query
        self.session = session
        phase = .handshake(WebSocketClientHandshake(endpoint: target, generator: &generator))
    }

    public var isConnected: Bool { session.state == .connected }

    // MARK: Input

    public mutating func handle(_ bytes: [UInt8], now: Instant) {
        switch phase {
        case .handshake(var handshake):
            guard let outcome = handshake.handle(bytes) else { return phase = .handshake(handshake) }
            switch outcome {
            case .accepted(_, let remaining):
                phase = .open(WebSocketConnection(role: .client, maskSeed: maskSeed))
                if !remaining.isEmpty { handle(remaining, now: now) }
            case .rejected(let error):
                finish("WebSocket upgrade refused: \(error)")
            }
        case .open(var socket):
            socket.handle(bytes, now: now)
            phase = .open(socket)
            process(now: now)
        case .closed:
            return
        }
    }

    /// The server closed the byte stream.
    public mutating func handleEOF(now: Instant) {
        switch phase {
        case .handshake(var handshake):
            if case .rejected(let error) = handshake.handleEOF() { finish("WebSocket upgrade refused: \(error)") }
        case .open(var socket):
            socket.handleEOF()
            phase = .open(socket)
            process(now: now)
            finish("connection closed by the server")
        case .closed:
            return
        }
    }

    public func pollTimeout() -> Instant? {
        guard case .open(let socket) = phase else { return nil }
        return [socket.pollTimeout(), session.pollTimeout()].compactMap { $0 }.min()
    }

    public mutating func handleTimeout(now: Instant) {
        guard case .open(var socket) = phase else { return }
        socket.handleTimeout(now: now)
        session.handleTimeout(now: now)
        phase = .open(socket)
        process(now: now)
    }

    // MARK: Output

    /// Emits now, or once connected; returns the ack id when `wantsAck`.
    @discardableResult
    public mutating func emit(_ name: String, _ args: [JSONValue], wantsAck: Bool, now: Instant) -> Int? {
        let id = session.emit(name, args, wantsAck: wantsAck)
        flush(now: now)
        return id
    }

    public mutating func ack(_ id: Int, args: [JSONValue], now: Instant) {
        session.ack(id, args: args)
        flush(now: now)
    }

    /// Leaves the namespace and closes the WebSocket (the owner closes the stream once
    /// the bytes are out).
    public mutating func disconnect(now: Instant) {
        session.disconnect()
        flush(now: now)
    }

    /// Bytes for the stream, if any.
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

    // MARK: Inside

    private mutating func process(now: Instant) {
        guard case .open(var socket) = phase else { return }
        while let event = socket.pollEvent() {
            switch event {
            case .text(let text): session.handle(.text(text), now: now)
            case .binary(let bytes): session.handle(.binary(bytes), now: now)
            case .pong: break
            case .closed(let code, let reason, let byPeer):
                session.handleClosed(reason: "WebSocket closed \(byPeer ? "by the server" : "by us") with \(code)\(reason.isEmpty ? "" : " \(reason)")")
            }
        }
        while let event = session.pollEvent() {
            switch event {
            case .connected(let socketID): events.append(.connected(socketID: socketID))
            case .event(let message): events.append(.event(message))
            case .ack(let message): events.append(.ack(message))
            case .connectFailed(let body): finish("Socket.IO namespace refused: \(body.serialized)")
            case .disconnected(let reason): finish("Socket.IO session ended: \(reason)")
            case .opened: break
            }
        }
        while let out = session.pollOutput() { socket.perform(out, now: now) }
        while let bytes = socket.pollTransmit() { output.append(contentsOf: bytes) }
        if case .closed = phase { return }
        phase = .open(socket)
    }

    private mutating func flush(now: Instant) {
        guard case .open(var socket) = phase else { return }
        while let out = session.pollOutput() { socket.perform(out, now: now) }
        while let bytes = socket.pollTransmit() { output.append(contentsOf: bytes) }
        phase = .open(socket)
    }

    private mutating func finish(_ reason: String) {
        if case .closed = phase { return }
        phase = .closed
        events.append(.closed(reason: reason))
    }
}
