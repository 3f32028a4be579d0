import Net
import RTCBase

/// A call through Janus 1.1's WebSocket API (PROTOCOLS.md section 5), as a sans-IO
/// adapter over one connection's bytes: `JanusSession` runs the call, this carries it.
///
/// The opening handshake asks for subprotocol `janus-protocol` and fails if Janus does
/// not select it. Each request is one text message with `session_id` and `handle_id` in
/// it; replies and events arrive on the same socket (no long poll), matched by
/// transaction or by session and sender. A request with no result within `timeout`
/// fails the call (a keepalive or trickle only gets a notice). Messages that are not
/// Janus's JSON are counted (`unreadableMessages`), noted and ignored. When the call
/// ends (`.closed` or `.failed`) the socket is closed with 1000, which also makes Janus
/// drop the session; the host closes the connection once `isClosed` and the output
/// is written (`SingleConnection`).
public struct JanusWebSocketCallSetup: ConnectionMachine, Sendable {
    /// The subprotocol Janus's WebSocket transport speaks.
    public static let subprotocol = "janus-protocol"

    /// Where the socket goes, e.g. `ws://127.0.0.1:8188/`.
    public let server: Endpoint
    public var destination: StreamDestination { server.streamDestination }
    /// How long a request, or the opening handshake, may wait for its result.
    public var timeout: Duration
    public var sessionID: Int64? { session.sessionID }
    public var handleID: Int64? { session.handleID }
    public var roomID: Int64? { session.roomID }
    public var feedID: Int64? { session.feedID }
    /// Text that is not a Janus message, and binary messages, received so far.
    public private(set) var unreadableMessages = 0
    /// Messages for another session or handle, ignored.
    public var foreignMessages: Int { session.foreignMessages }
    var session: JanusSession
    private var handshake: WebSocketClientHandshake?
    private var handshakeDeadline: Instant?
    private var socket: WebSocketConnection?
    private let maskSeed: UInt64
    /// Requests made before the handshake completed.
    private var waiting: [JanusRequest] = []
    /// When each request still awaiting its result gives up.
    private var deadlines: [String: Instant] = [:]
    private var output: [UInt8] = []
    /// The connection is over (handshake refused, socket closed).
    public private(set) var isClosed = false

    /// - Parameters:
    ///   - server: Janus's WebSocket endpoint, `ws://host:8188/` or `wss://...`.
    ///   - offer: our SDP offer (EchoTest, publisher); nil for a subscriber.
    ///   - seed: seeds transactions, the handshake key and the masking keys.
    public init(server: Endpoint, plugin: JanusPlugin, offer: String?, seed: UInt64,
                keepaliveInterval: Duration = .seconds(25), timeout: Duration = .seconds(10)) {
        self.server = server
        self.timeout = timeout
        maskSeed = seed ^ 0x6a61_6e75_7377_7321
        session = JanusSession(plugin: plugin, offer: offer, seed: seed, keepaliveInterval: keepaliveInterval)
    }

    /// Sends the upgrade request; `create` follows once Janus accepts it.
    public mutating func start(now: Instant) {
        guard handshake == nil, socket == nil, !isClosed else { return }
        var generator = SeededGenerator(seed: maskSeed)
        handshake = WebSocketClientHandshake(endpoint: server, protocols: [Self.subprotocol], generator: &generator)
        handshakeDeadline = now + timeout
        session.start(now: now)
        flush(now: now)
    }

    public mutating func answer(_ sdp: String, now: Instant) { session.answer(sdp, now: now); flush(now: now) }
    public mutating func trickle(_ candidate: TrickleCandidate?, now: Instant) { session.trickle(candidate, now: now); flush(now: now) }
    public mutating func hangUp(now: Instant) { session.hangUp(now: now); flush(now: now) }
    public mutating func restartIce(offer: String, now: Instant) { session.restartIce(offer: offer, now: now); flush(now: now) }
    public mutating func pollEvent() -> CallSetupEvent? { session.outbox.pollEvent() }

    /// Bytes to write to the connection.
    public mutating func pollTransmit() -> [UInt8]? {
        guard !output.isEmpty else { return nil }
        defer { output = [] }
        return output
    }

    /// The connection could not be made (refused, TLS failed).
    public mutating func connectionFailed(_ reason: String, now: Instant) {
        closeDown()
        session.transportFailed(.noAnswer, "cannot reach Janus at \(server): \(reason)")
        flush(now: now)
    }

    /// Bytes from Janus.
    public mutating func handle(_ bytes: [UInt8], now: Instant) {
        guard !isClosed else { return }
        if var pendingHandshake = handshake {
            guard let outcome = pendingHandshake.handle(bytes) else {
                handshake = pendingHandshake
                return
            }
            return handshakeEnded(outcome, now: now)
        }
        socket?.handle(bytes, now: now)
        flush(now: now)
    }

    /// Janus closed the connection.
    public mutating func handleEOF(now: Instant) {
        guard !isClosed else { return }
        if var pendingHandshake = handshake { return handshakeEnded(pendingHandshake.handleEOF(), now: now) }
        socket?.handleEOF()
        flush(now: now)
    }

    /// The earliest of the next keepalive, a request's or the handshake's deadline, and
    /// the wait for Janus's Close.
    public func pollTimeout() -> Instant? {
        guard !isClosed else { return nil }
        let candidates = [session.pollTimeout(), handshake == nil ? nil : handshakeDeadline, deadlines.values.min(),
                          socket?.pollTimeout()]
        return candidates.compactMap { $0 }.min()
    }

    public mutating func handleTimeout(now: Instant) {
        guard !isClosed else { return }
        if handshake != nil, let handshakeDeadline, now >= handshakeDeadline {
            closeDown()
            session.transportFailed(.noAnswer, "Janus did not complete the WebSocket handshake at \(server) within \(timeout)")
            return flush(now: now)
        }
        for (transaction, deadline) in deadlines where deadline <= now {
            deadlines[transaction] = nil
            session.requestFailed(transaction, code: .noAnswer, now: now) { "Janus did not answer \($0) within \(timeout)" }
        }
        session.handleTimeout(now: now)
        socket?.handleTimeout(now: now)
        flush(now: now)
    }

    // MARK: Carrying

    private mutating func handshakeEnded(_ outcome: WebSocketClientHandshake.Outcome, now: Instant) {
        handshake = nil
        switch outcome {
        case .rejected(let error):
            closeDown()
            guard let response = error.response else {
                session.transportFailed(.noAnswer, "the WebSocket handshake with Janus at \(server) failed: \(error)")
                break
            }
            let body = response.body.isEmpty ? "" : ": " + CallSetupOutbox.quote(response.body)
            session.transportFailed(.refused, "Janus refused the WebSocket upgrade at \(server): \(error)\(body)")
        case .accepted(let chosen, let remaining):
            guard chosen == Self.subprotocol else {
                closeDown()
                session.transportFailed(.refused, "the WebSocket handshake at \(server) did not accept subprotocol "
                                        + "\(Self.subprotocol) (the server chose \(chosen.map { "\"\($0)\"" } ?? "none")): is it Janus?")
                return flush(now: now)
            }
            socket = WebSocketConnection(role: .client, maxMessageSize: 4 << 20, maskSeed: maskSeed)
            let early = waiting
            waiting = []
            for request in early { send(request, now: now) }
            socket?.handle(remaining, now: now)
        }
        flush(now: now)
    }

    /// Moves requests to the socket, events from it, and bytes to `output`; closes the
    /// socket once the call is over.
    private mutating func flush(now: Instant) {
        if var pendingHandshake = handshake, let bytes = pendingHandshake.pollTransmit() {
            handshake = pendingHandshake
            output += bytes
        }
        while let event = socket?.pollEvent() { receive(event, now: now) }
        while let request = session.pollRequest() { send(request, now: now) }
        deadlines = deadlines.filter { session.isPending($0.key) }
        if session.isFinished, socket?.state == .open { socket?.close(code: WebSocketError.normalClosure, reason: "", now: now) }
        while let event = socket?.pollEvent() { receive(event, now: now) }
        if let bytes = socket?.pollTransmit() { output += bytes }
        if socket?.isClosed == true { isClosed = true }
    }

    private mutating func send(_ request: JanusRequest, now: Instant) {
        guard !isClosed else { return }
        guard let socket, socket.state == .open else {
            if handshake != nil { waiting.append(request) }
            return
        }
        self.socket?.send(text: request.webSocketMessage.serialized)
        deadlines[request.transaction] = now + timeout
    }

    private mutating func receive(_ event: WebSocketEvent, now: Instant) {
        switch event {
        case .text(let text):
            let messages = (try? JanusMessage.messages(in: Array(text.utf8))) ?? []
            guard !messages.isEmpty else { return unreadable("text that is not a Janus message: \(CallSetupOutbox.quote(Array(text.utf8)))") }
            for message in messages { session.receive(message, now: now) }
        case .binary(let bytes):
            unreadable("a binary message of \(bytes.count) bytes")
        case .pong:
            return
        case .closed(let code, let reason, let byPeer):
            isClosed = true
            let words = reason.isEmpty ? "" : ": \(reason)"
            session.transportClosed(byPeer ? "Janus closed the WebSocket (code \(code)\(words))"
                                           : "the WebSocket to Janus failed (we closed it with code \(code)\(words))")
        }
    }

    private mutating func unreadable(_ what: String) {
        unreadableMessages += 1
        session.outbox.emit(.notice("Janus sent \(what) (ignored)"))
    }

    /// Ends the connection before or without a socket.
    private mutating func closeDown() {
        handshake = nil
        waiting = []
        isClosed = true
    }
}
