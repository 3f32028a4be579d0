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

/// A Socket.IO v5 client over Engine.IO v4 on a WebSocket, for one namespace, as a
/// sans-IO state machine (PROTOCOLS.md section 4).
///
/// Feed it the WebSocket's messages; send what `pollOutput` returns. It connects the
/// namespace when the open packet arrives, answers each server ping `2` with `3`, drops
/// the session when no ping comes within pingInterval + pingTimeout, buffers emits until
/// connected, numbers acks and reassembles binary events.
public struct SocketIOClientSession: Sendable {
    public enum State: Sendable { case awaitingOpen, connecting, connected, closed }

    public let namespace: String
    public let auth: JSONValue?
    public private(set) var state = State.awaitingOpen
    public private(set) var handshake: EngineIOHandshake?
    private var assembler = SocketIOAssembler()
    private var nextAckId = 0
    private var buffered: [SocketIOMessage] = []
    private var outputs = FIFO<SocketIOOutput>()
    private var events = FIFO<SocketIOClientEvent>()
    private var heartbeatDeadline: Instant?

    /// - Parameter auth: the CONNECT payload (`40{auth}`), e.g. a token.
    public init(namespace: String = "/", auth: JSONValue? = nil) {
        self.namespace = namespace
        self.auth = auth
    }

    /// The WebSocket path and query for Engine.IO v4 over WebSocket.
    public static let path = "/socket.io/?EIO=4&transport=websocket"

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
                send(SocketIOPacket(kind: .connect, namespace: namespace, data: auth))
                armHeartbeat(now: now)
            case .ping(let data):
                outputs.append(.message(EngineIOPacket.pong(data).encoded))
                armHeartbeat(now: now)
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
        events.append(.disconnected(reason: reason))
    }

    /// When the server's next ping is overdue.
    public func pollTimeout() -> Instant? { heartbeatDeadline }

    /// Ends the session when the server's pings stopped.
    public mutating func handleTimeout(now: Instant) {
        guard let deadline = heartbeatDeadline, now >= deadline else { return }
        end("no ping from the server within pingInterval + pingTimeout", code: WebSocketError.goingAway)
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
            guard state == .connecting, let sid = packet.data?["sid"]?.stringValue else {
                throw .invalid("unexpected CONNECT")
            }
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
