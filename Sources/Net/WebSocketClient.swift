import RTCBase

/// One WebSocket client on one byte stream, as a sans-IO machine: the RFC 6455 opening
/// handshake, then frames, carrying either plain text messages or a Socket.IO session
/// (either Engine.IO version `SocketIOClientSession` speaks). Bytes in, bytes out,
/// events up; the owner sends, emits and acks through it.
public struct WebSocketClient: Sendable {
    public enum Event: Hashable, Sendable {
        /// Able to send: the upgrade was accepted (plain), or the namespace accepted us
        /// (Socket.IO, with the socket id).
        case opened(socketID: String?)
        /// A text message (plain WebSocket only).
        case text(String)
        /// A Socket.IO event from the server (answer `ackId` with `ack`).
        case event(SocketIOMessage)
        /// The answer to a Socket.IO emit that wanted one.
        case ack(SocketIOMessage)
        /// The connection is over, with why; nothing more comes.
        case closed(reason: String)
    }

    private enum Phase: Sendable {
        case handshake(WebSocketClientHandshake)
        case open(WebSocketConnection)
        case closed
    }

    private var phase: Phase
    private var session: SocketIOClientSession?
    private var events = FIFO<Event>()
    private var output: [UInt8] = []
    private let maskSeed: UInt64

    /// `endpoint` is the whole `ws`/`wss` URL; with a `session`, its path and query should
    /// be Socket.IO's (`/socket.io/` and `session.query`).
    public init(endpoint: Endpoint, session: SocketIOClientSession?, seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        maskSeed = generator.next()
        self.session = session
        phase = .handshake(WebSocketClientHandshake(endpoint: endpoint, generator: &generator))
    }

    /// A client for the Socket.IO server at `server` (`http://host:port`): `/socket.io/`
    /// with the session's Engine.IO version in the query.
    public static func socketIO(server: Endpoint, session: SocketIOClientSession, seed: UInt64) -> WebSocketClient {
        var target = server
        target.scheme = server.scheme.isSecure ? .wss : .ws
        target.path = "/socket.io/"
        target.query = session.query
        return WebSocketClient(endpoint: target, session: session, seed: seed)
    }

    public var isClosed: Bool { if case .closed = phase { true } else { false } }

    // MARK: Input

    public mutating func handle(_ bytes: [UInt8], now: Instant) {
        switch phase {
        case .handshake(var handshake):
            guard let outcome = handshake.handle(bytes) else { return phase = .handshake(handshake) }
            switch outcome {
            case .accepted(_, let remaining):
                phase = .open(WebSocketConnection(role: .client, maskSeed: maskSeed))
                if session == nil { events.append(.opened(socketID: nil)) }
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
            if case .rejected(let error) = handshake.handleEOF() { finish("\(error)") }
        case .open(var socket):
            socket.handleEOF()
            phase = .open(socket)
            process(now: now)
            finish("connection closed by the server")
        case .closed:
            return
        }
    }

    /// The connection could not be made, or broke.
    public mutating func connectionFailed(_ reason: String) { finish(reason) }

    public func pollTimeout() -> Instant? {
        guard case .open(let socket) = phase else { return nil }
        return [socket.pollTimeout(), session?.pollTimeout()].compactMap { $0 }.min()
    }

    public mutating func handleTimeout(now: Instant) {
        guard case .open(var socket) = phase else { return }
        socket.handleTimeout(now: now)
        session?.handleTimeout(now: now)
        phase = .open(socket)
        process(now: now)
    }

    // MARK: Output

    /// A plain text message (once open).
    public mutating func send(text: String) {
        guard case .open(var socket) = phase else { return }
        socket.send(text: text)
        phase = .open(socket)
        drain()
    }

    /// Emits now, or once connected; returns the ack id when `wantsAck`.
    @discardableResult
    public mutating func emit(_ name: String, _ args: [JSONValue], wantsAck: Bool = false, now: Instant) -> Int? {
        let id = session?.emit(name, args, wantsAck: wantsAck)
        flush(now: now)
        return id
    }

    public mutating func ack(_ id: Int, args: [JSONValue], now: Instant) {
        session?.ack(id, args: args)
        flush(now: now)
    }

    /// Leaves the Socket.IO namespace and closes the WebSocket.
    public mutating func disconnect(now: Instant) {
        session?.disconnect()
        flush(now: now)
    }

    /// Starts the WebSocket close handshake (1000 "bye"); the owner closes the stream once
    /// the bytes are out.
    public mutating func close(now: Instant) {
        guard case .open(var socket) = phase else { return finish("closed by us") }
        socket.close(code: 1000, reason: "bye", now: now)
        phase = .open(socket)
        drain()
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
            case .text(let text):
                if session != nil { session?.handle(.text(text), now: now) } else { events.append(.text(text)) }
            case .binary(let bytes):
                session?.handle(.binary(bytes), now: now)
            case .pong:
                break
            case .closed(let code, let reason, let byPeer):
                finish("WebSocket closed \(byPeer ? "by the server" : "by us") with \(code)\(reason.isEmpty ? "" : " \(reason)")")
            }
        }
        while let event = session?.pollEvent() {
            switch event {
            case .connected(let socketID): events.append(.opened(socketID: socketID))
            case .event(let message): events.append(.event(message))
            case .ack(let message): events.append(.ack(message))
            case .connectFailed(let body): finish("Socket.IO namespace refused: \(body.serialized)")
            case .disconnected(let reason): finish("Socket.IO session ended: \(reason)")
            case .opened: break
            }
        }
        while let out = session?.pollOutput() { socket.perform(out, now: now) }
        while let bytes = socket.pollTransmit() { output.append(contentsOf: bytes) }
        if !isClosed { phase = .open(socket) }
    }

    private mutating func flush(now: Instant) {
        guard case .open(var socket) = phase else { return }
        while let out = session?.pollOutput() { socket.perform(out, now: now) }
        phase = .open(socket)
        drain()
    }

    private mutating func drain() {
        guard case .open(var socket) = phase else { return }
        while let bytes = socket.pollTransmit() { output.append(contentsOf: bytes) }
        phase = .open(socket)
    }

    private mutating func finish(_ reason: String) {
        if case .closed = phase { return }
        phase = .closed
        events.append(.closed(reason: reason))
    }
}
