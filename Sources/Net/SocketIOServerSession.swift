import RTCBase

/// What a `SocketIOServerSession` reports.
public enum SocketIOServerEvent: Hashable, Sendable {
    /// A client joined `namespace`; `socketId` is what it was told in `40{"sid":...}`.
    case connected(namespace: String, socketId: String, auth: JSONValue?)
    case event(SocketIOMessage)
    case ack(SocketIOMessage)
    /// The client left `namespace` (`41`).
    case disconnected(namespace: String)
    /// The session is over; the WebSocket is being closed (or already was).
    case closed(reason: String)
}

/// The server side of Socket.IO v5 over Engine.IO v4 on a WebSocket, as a sans-IO state
/// machine (PROTOCOLS.md section 4).
///
/// It sends the open packet at once, accepts CONNECT for the configured namespaces
/// (others get `44/ns,{"message":"Invalid namespace"}`), pings every pingInterval and
/// closes a client that does not answer within pingTimeout. An event before CONNECT,
/// unparsable packets and stray binary frames close the session with 1002; a message
/// over maxPayload with 1009 (build the `WebSocketConnection` with
/// `maxMessageSize: configuration.maxPayload` so frames are refused before buffering).
public struct SocketIOServerSession: Sendable {
    /// The values announced in the open packet and enforced by the session.
    public struct Configuration: Hashable, Sendable {
        public var pingInterval: Duration
        public var pingTimeout: Duration
        public var maxPayload: Int
        public var namespaces: Set<String>

        public init(pingInterval: Duration = .seconds(25), pingTimeout: Duration = .seconds(20), maxPayload: Int = 1_000_000,
                    namespaces: Set<String> = ["/"]) {
            self.pingInterval = pingInterval
            self.pingTimeout = pingTimeout
            self.maxPayload = maxPayload
            self.namespaces = namespaces
        }
    }

    public let configuration: Configuration
    /// The Engine.IO session id sent in the open packet.
    public let sid: String
    /// Socket ids by connected namespace.
    public private(set) var sockets: [String: String] = [:]
    public private(set) var isClosed = false
    private var generator: SeededGenerator
    private var assembler = SocketIOAssembler()
    private var nextPing: Instant?
    private var pongDeadline: Instant?
    private var outputs = FIFO<SocketIOOutput>()
    private var events = FIFO<SocketIOServerEvent>()

    /// Starts the session: the open packet is queued and the first ping scheduled.
    /// - Parameter seed: seeds the session and socket ids.
    public init(configuration: Configuration = Configuration(), seed: UInt64, now: Instant) {
        self.configuration = configuration
        generator = SeededGenerator(seed: seed)
        sid = SocketIOServerSession.makeId(&generator)
        let open = EngineIOHandshake(sid: sid, pingInterval: Int(configuration.pingInterval.milliseconds),
                                     pingTimeout: Int(configuration.pingTimeout.milliseconds), maxPayload: configuration.maxPayload)
        outputs.append(.message(EngineIOPacket.open(open).encoded))
        nextPing = now + configuration.pingInterval
    }

    // MARK: Input

    /// One message received on the WebSocket.
    public mutating func handle(_ message: WebSocketMessage, now: Instant) {
        guard !isClosed else { return }
        let size: Int
        switch message {
        case .text(let text): size = text.utf8.count
        case .binary(let bytes): size = bytes.count
        }
        guard size <= configuration.maxPayload else {
            return close("message of \(size) bytes exceeds maxPayload \(configuration.maxPayload)", code: WebSocketError.messageTooBig)
        }
        do {
            switch try EngineIOPacket(message) {
            case .pong:
                guard pongDeadline != nil else { return }
                pongDeadline = nil
                nextPing = now + configuration.pingInterval
            case .ping(let data):
                outputs.append(.message(EngineIOPacket.pong(data).encoded))
            case .close:
                close("client closed the Engine.IO session", code: WebSocketError.normalClosure)
            case .message(let text):
                try receive(SocketIOPacket(parsing: text))
            case .binary(let bytes):
                if let message = try assembler.add(bytes) { deliver(message) }
            case .open:
                throw ParseError.invalid("open packet from a client")
            case .upgrade, .noop:
                break
            }
        } catch {
            close("protocol error: \(error)", code: WebSocketError.protocolError)
        }
    }

    /// The WebSocket closed under the session.
    public mutating func handleClosed(reason: String) {
        guard !isClosed else { return }
        isClosed = true
        nextPing = nil
        pongDeadline = nil
        events.append(.closed(reason: reason))
    }

    /// The next ping to send or the pong deadline, whichever comes first.
    public func pollTimeout() -> Instant? { pongDeadline ?? nextPing }

    /// Sends the due ping, or closes the session when its pong is overdue.
    public mutating func handleTimeout(now: Instant) {
        guard !isClosed else { return }
        if let deadline = pongDeadline, now >= deadline {
            return close("ping timeout", code: WebSocketError.goingAway)
        }
        if let due = nextPing, now >= due, pongDeadline == nil {
            outputs.append(.message(EngineIOPacket.ping("").encoded))
            nextPing = nil
            pongDeadline = now + configuration.pingTimeout
        }
    }

    // MARK: Output

    /// Emits an event to a connected namespace; returns false if it is not connected.
    @discardableResult
    public mutating func emit(_ name: String, _ args: [JSONValue] = [], attachments: [[UInt8]] = [],
                              namespace: String = "/", ackId: Int? = nil) -> Bool {
        guard !isClosed, sockets[namespace] != nil else { return false }
        sendMessage(SocketIOMessage(namespace: namespace, name: name, args: args, attachments: attachments, ackId: ackId))
        return true
    }

    /// Answers a client event that carried `id`.
    public mutating func ack(_ id: Int, args: [JSONValue] = [], namespace: String = "/") {
        guard !isClosed, sockets[namespace] != nil else { return }
        sendMessage(SocketIOMessage(namespace: namespace, name: nil, args: args, ackId: id))
    }

    /// Removes the client from `namespace` (`41`).
    public mutating func disconnect(namespace: String = "/") {
        guard !isClosed, sockets.removeValue(forKey: namespace) != nil else { return }
        send(SocketIOPacket(kind: .disconnect, namespace: namespace))
    }

    /// Ends the whole session, closing the WebSocket with `code`.
    public mutating func close(_ reason: String, code: UInt16 = WebSocketError.normalClosure) {
        guard !isClosed else { return }
        outputs.append(.close(code: code, reason: reason))
        handleClosed(reason: reason)
    }

    /// The next thing to do on the WebSocket (send a message, or close).
    public mutating func pollOutput() -> SocketIOOutput? {
        outputs.popFirst()
    }

    /// The next event for the application.
    public mutating func pollEvent() -> SocketIOServerEvent? {
        events.popFirst()
    }

    // MARK: Internals

    private mutating func receive(_ packet: SocketIOPacket) throws(ParseError) {
        guard !assembler.isWaiting else { throw .invalid("packet while binary attachments are pending") }
        switch packet.kind {
        case .connect:
            guard configuration.namespaces.contains(packet.namespace) else {
                send(SocketIOPacket(kind: .connectError, namespace: packet.namespace,
                                    data: .object(["message": "Invalid namespace"])))
                return
            }
            guard sockets[packet.namespace] == nil else { throw .invalid("second CONNECT to \(packet.namespace)") }
            let socketId = SocketIOServerSession.makeId(&generator)
            sockets[packet.namespace] = socketId
            send(SocketIOPacket(kind: .connect, namespace: packet.namespace, data: .object(["sid": .string(socketId)])))
            events.append(.connected(namespace: packet.namespace, socketId: socketId, auth: packet.data))
        case .disconnect:
            guard sockets.removeValue(forKey: packet.namespace) != nil else { return }
            events.append(.disconnected(namespace: packet.namespace))
        case .event, .ack, .binaryEvent, .binaryAck:
            guard sockets[packet.namespace] != nil else { throw .invalid("\(packet.kind) before CONNECT to \(packet.namespace)") }
            if let message = assembler.start(packet) { deliver(message) }
        case .connectError:
            throw .invalid("CONNECT_ERROR from a client")
        }
    }

    private mutating func deliver(_ message: SocketIOMessage) {
        events.append(message.name == nil ? .ack(message) : .event(message))
    }

    private mutating func send(_ packet: SocketIOPacket) { outputs.append(.carrying(packet)) }

    private mutating func sendMessage(_ message: SocketIOMessage) {
        for output in SocketIOOutput.carrying(message) { outputs.append(output) }
    }

    /// 20 characters of URL-safe base64 from the seeded generator.
    static func makeId(_ generator: inout SeededGenerator) -> String {
        let bytes = (0..<15).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return String(Base64.encode(bytes).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }
}
