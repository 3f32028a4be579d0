import RTCBase

/// What a `SocketIOClientSession` reports.
public enum SocketIOClientEvent: Hashable, Sendable {
    /// The Engine.IO open packet arrived; CONNECT has been sent.
    case opened(EngineIOHandshake)
    /// The namespace accepted us; `socketId` is the id room events use.
    case connected(socketId: String)
    /// The server refused the namespace (`44{...}`), e.g. `{"message":"Invalid namespace"}`.
    case connectFailed(JSONValue)
    /// An event from the server; answer `ackId` with `ack(_:args:)`.
    case event(SocketIOMessage)
    /// The answer to one of our `emit(..., wantsAck: true)`.
    case ack(SocketIOMessage)
    /// The session is over (server DISCONNECT or close, heartbeat lost, protocol error).
    case disconnected(reason: String)
}

/// A Socket.IO client on a WebSocket, for one namespace, as a sans-IO state machine
/// (PROTOCOLS.md section 4): Socket.IO v5 over Engine.IO v4, or Socket.IO v4 (the 2.x
/// servers, such as OWT's portal) over Engine.IO v3.
///
/// Feed it the WebSocket's messages; send what `pollOutput` returns. It buffers emits
/// until connected, numbers acks and reassembles binary events. The two Engine.IO
/// versions differ in who connects the namespace and who pings:
/// - v4: it connects the namespace when the open packet arrives, answers each server
///   ping `2` with `3`, and drops the session when no ping comes within pingInterval +
///   pingTimeout.
/// - v3: the server connects the default namespace itself (`40`, no sid: the Engine.IO
///   sid stands for it); the client pings `2` every pingInterval and drops the session
///   when the pong `3` is not back within pingTimeout.
public struct SocketIOClientSession: Sendable {
    public enum State: Sendable { case awaitingOpen, connecting, connected, closed }
    /// The `EIO` query parameter the WebSocket URL carries.
    public enum EngineIOVersion: Int, Sendable { case v3 = 3, v4 = 4 }

    public let namespace: String
    public let auth: JSONValue?
    public let engineIO: EngineIOVersion
    public private(set) var state = State.awaitingOpen
    public private(set) var handshake: EngineIOHandshake?
    private var assembler = SocketIOAssembler()
    private var nextAckId = 0
    private var buffered: [SocketIOMessage] = []
    private var outputs = FIFO<SocketIOOutput>()
    private var events = FIFO<SocketIOClientEvent>()
    /// v4: when the server's next ping is overdue. v3: when our ping's pong is overdue.
    private var heartbeatDeadline: Instant?
    /// v3 only: when we ping next.
    private var nextPing: Instant?

    /// - Parameter auth: the CONNECT payload (`40{auth}`), e.g. a token (v4 only: a v3
    ///   CONNECT carries none).
    public init(namespace: String = "/", auth: JSONValue? = nil, engineIO: EngineIOVersion = .v4) {
        self.namespace = namespace
        self.auth = auth
        self.engineIO = engineIO
    }

    /// The WebSocket path and query for Engine.IO v4 over WebSocket.
    public static let path = "/socket.io/?EIO=4&transport=websocket"

    /// The WebSocket query for this session's Engine.IO version.
    public var query: String { "EIO=\(engineIO.rawValue)&transport=websocket" }

    // MARK: Input

    /// One message received on the WebSocket.
    public mutating func handle(_ message: WebSocketMessage, now: Instant) {
        guard state != .closed else { return }
        do {
            switch try EngineIOPacket(message) {
            case .open(let open):
                guard state == .awaitingOpen else { throw ParseError.invalid("second open packet") }
                handshake = open
                state = .connecting
                events.append(.opened(open))
                switch engineIO {
                case .v4:
                    send(SocketIOPacket(kind: .connect, namespace: namespace, data: auth))
                    armHeartbeat(now: now)
                case .v3:
                    if namespace != "/" { send(SocketIOPacket(kind: .connect, namespace: namespace)) }
                    nextPing = now + .milliseconds(open.pingInterval)
                }
            case .ping(let data):
                outputs.append(.message(EngineIOPacket.pong(data).encoded))
                if engineIO == .v4 { armHeartbeat(now: now) }
            case .pong where engineIO == .v3:
                heartbeatDeadline = nil
            case .close:
                end("server closed the Engine.IO session", code: WebSocketError.normalClosure)
            case .message(let text):
                try receive(SocketIOPacket(parsing: text))
            case .binary(let bytes):
                if let message = try assembler.add(bytes) { deliver(message) }
            case .pong, .upgrade, .noop:
                break
            }
        } catch {
            end("protocol error: \(error)", code: WebSocketError.protocolError)
        }
    }

    /// The WebSocket closed.
    public mutating func handleClosed(reason: String) {
        guard state != .closed else { return }
        state = .closed
        heartbeatDeadline = nil
        nextPing = nil
        events.append(.disconnected(reason: reason))
    }

    /// When the server's next ping (v4) or its pong (v3) is overdue, or we ping (v3).
    public func pollTimeout() -> Instant? { [heartbeatDeadline, nextPing].compactMap { $0 }.min() }

    /// Ends the session when the heartbeat stopped; pings the server when due (v3).
    public mutating func handleTimeout(now: Instant) {
        if let deadline = heartbeatDeadline, now >= deadline {
            return end(engineIO == .v4 ? "no ping from the server within pingInterval + pingTimeout"
                                       : "no pong from the server within pingTimeout", code: WebSocketError.goingAway)
        }
        if let due = nextPing, now >= due, let handshake {
            outputs.append(.message(EngineIOPacket.ping("").encoded))
            nextPing = now + .milliseconds(handshake.pingInterval)
            if heartbeatDeadline == nil { heartbeatDeadline = now + .milliseconds(handshake.pingTimeout) }
        }
    }

    // MARK: Output

    /// Emits `name` with `args` (and binary `attachments` referenced by placeholders).
    /// Returns the ack id when `wantsAck`; the answer arrives as `.ack`.
    @discardableResult
    public mutating func emit(_ name: String, _ args: [JSONValue] = [], attachments: [[UInt8]] = [],
                              wantsAck: Bool = false) -> Int? {
        var ackId: Int?
        if wantsAck {
            ackId = nextAckId
            nextAckId += 1
        }
        let message = SocketIOMessage(namespace: namespace, name: name, args: args, attachments: attachments, ackId: ackId)
        if state == .connected {
            sendMessage(message)
        } else if state != .closed {
            buffered.append(message)
        }
        return ackId
    }

    /// Answers a server event that carried `id`.
    public mutating func ack(_ id: Int, args: [JSONValue] = []) {
        guard state == .connected else { return }
        sendMessage(SocketIOMessage(namespace: namespace, name: nil, args: args, ackId: id))
    }

    /// Leaves the namespace (`41`) and closes the WebSocket.
    public mutating func disconnect() {
        guard state != .closed else { return }
        if state == .connected { send(SocketIOPacket(kind: .disconnect, namespace: namespace)) }
        end("client disconnect", code: WebSocketError.normalClosure)
    }

    /// The next thing to do on the WebSocket (send a message, or close).
    public mutating func pollOutput() -> SocketIOOutput? {
        outputs.popFirst()
    }

    /// The next event for the application.
    public mutating func pollEvent() -> SocketIOClientEvent? {
        events.popFirst()
    }

    // MARK: Internals

    private mutating func receive(_ packet: SocketIOPacket) throws(ParseError) {
        guard packet.namespace == namespace else { return }
        switch packet.kind {
        case .connect:
            let sid = engineIO == .v3 ? packet.data?["sid"]?.stringValue ?? handshake?.sid : packet.data?["sid"]?.stringValue
            guard state == .connecting, let sid else { throw .invalid("unexpected CONNECT") }
            state = .connected
            events.append(.connected(socketId: sid))
            for message in buffered { sendMessage(message) }
            buffered = []
        case .connectError:
            events.append(.connectFailed(packet.data ?? .null))
            end("namespace \(namespace) refused", code: WebSocketError.normalClosure)
        case .disconnect:
            end("server disconnected the namespace", code: WebSocketError.normalClosure)
        case .event, .ack, .binaryEvent, .binaryAck:
            guard state == .connected else { throw .invalid("\(packet.kind) before CONNECT") }
            guard !assembler.isWaiting else { throw .invalid("packet while binary attachments are pending") }
            if let message = assembler.start(packet) { deliver(message) }
        }
    }

    private mutating func deliver(_ message: SocketIOMessage) {
        events.append(message.name == nil ? .ack(message) : .event(message))
    }

    private mutating func armHeartbeat(now: Instant) {
        guard let handshake else { return }
        heartbeatDeadline = now + .milliseconds(handshake.pingInterval + handshake.pingTimeout)
    }

    private mutating func send(_ packet: SocketIOPacket) { outputs.append(.carrying(packet)) }

    private mutating func sendMessage(_ message: SocketIOMessage) {
        for output in SocketIOOutput.carrying(message) { outputs.append(output) }
    }

    private mutating func end(_ reason: String, code: UInt16) {
        outputs.append(.close(code: code, reason: reason))
        handleClosed(reason: reason)
    }
}
