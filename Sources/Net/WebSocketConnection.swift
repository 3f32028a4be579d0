import RTCBase

/// What a `WebSocketConnection` reports.
public enum WebSocketEvent: Hashable, Sendable {
    /// A complete text message (fragments joined, UTF-8 checked).
    case text(String)
    /// A complete binary message.
    case binary([UInt8])
    /// A pong, e.g. the answer to `ping`.
    case pong([UInt8])
    /// The connection is closed: `code` and `reason` are the peer's when it closed
    /// (1005 if its Close had no code, 1006 if it vanished), ours when we failed it.
    case closed(code: UInt16, reason: String, byPeer: Bool)
}

/// One WebSocket connection after the opening handshake (RFC 6455 sections 5 to 7), as a
/// sans-IO state machine for either role.
///
/// Messages are reassembled from fragments; pings are answered at once; a peer's Close
/// is echoed (section 5.5.1). A protocol violation sends Close 1002, invalid UTF-8 in a
/// text message 1007, a message over `maxMessageSize` 1009, and the connection is done
/// (`isClosed`). Clients mask every frame with keys from a seeded generator (section 5.3).
public struct WebSocketConnection: Sendable {
    public enum Role: Sendable { case client, server }
    public enum State: Sendable { case open, closing, closed }

    public let role: Role
    public let maxMessageSize: Int
    /// How long to wait for the peer's Close after sending ours.
    public var closeTimeout: Duration = .seconds(5)
    public private(set) var state = State.open
    private var decoder: WebSocketFrameDecoder
    private var generator: SeededGenerator
    private var fragments: [UInt8] = []
    private var fragmentOpcode: WebSocketFrame.Opcode?
    private var output: [UInt8] = []
    private var events = FIFO<WebSocketEvent>()
    private var closeDeadline: Instant?

    /// - Parameter maskSeed: seeds the masking keys of a client.
    public init(role: Role, maxMessageSize: Int = 1 << 20, maskSeed: UInt64 = 0) {
        self.role = role
        self.maxMessageSize = maxMessageSize
        decoder = WebSocketFrameDecoder(expectMasked: role == .server, maxFrameSize: maxMessageSize)
        generator = SeededGenerator(seed: maskSeed)
    }

    /// True once the close handshake is over or the connection failed; the driver
    /// closes the TCP connection after flushing `pollTransmit`.
    public var isClosed: Bool { state == .closed }

    // MARK: Sending

    /// Sends one text message in one frame.
    public mutating func send(text: String) { sendMessage(.text, Array(text.utf8), fragmentSize: nil) }

    /// Sends one binary message in one frame.
    public mutating func send(binary: [UInt8]) { sendMessage(.binary, binary, fragmentSize: nil) }

    /// Sends a message split into frames of at most `fragmentSize` bytes (section 5.4).
    public mutating func send(binary: [UInt8], fragmentSize: Int) { sendMessage(.binary, binary, fragmentSize: fragmentSize) }

    /// Sends a text message split into frames of at most `fragmentSize` bytes.
    public mutating func send(text: String, fragmentSize: Int) { sendMessage(.text, Array(text.utf8), fragmentSize: fragmentSize) }

    /// Sends a ping (payload cut to 125 bytes); the answer arrives as `.pong`.
    public mutating func ping(_ payload: [UInt8] = []) {
        guard state == .open else { return }
        writeFrame(.ping, Array(payload.prefix(125)), fin: true)
    }

    /// Starts the close handshake (section 7.1.2): sends Close and waits for the peer's.
    public mutating func close(code: UInt16 = WebSocketError.normalClosure, reason: String = "", now: Instant) {
        guard state == .open else { return }
        let sendable = WebSocketError.isSendable(code) ? code : WebSocketError.normalClosure
        writeFrame(.close, WebSocketFrame.closePayload(code: sendable, reason: reason), fin: true)
        state = .closing
        closeDeadline = now + closeTimeout
    }

    private mutating func sendMessage(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8], fragmentSize: Int?) {
        guard state == .open else { return }
        let size = max(1, fragmentSize ?? max(payload.count, 1))
        var offset = 0
        var frameOpcode = opcode
        repeat {
            let end = min(offset + size, payload.count)
            writeFrame(frameOpcode, Array(payload[offset..<end]), fin: end == payload.count)
            frameOpcode = .continuation
            offset = end
        } while offset < payload.count
    }

    private mutating func writeFrame(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8], fin: Bool) {
        let key: UInt32? = role == .client ? UInt32(truncatingIfNeeded: generator.next()) : nil
        WebSocketFrame(fin: fin, opcode: opcode, maskingKey: key, payload: payload).write(into: &output)
    }

    // MARK: Receiving

    /// Bytes received from the peer.
    public mutating func handle(_ bytes: some Sequence<UInt8>, now: Instant) {
        guard state != .closed else { return }
        decoder.append(bytes)
        do {
            while state != .closed, let frame = try decoder.next() {
                try receive(frame)
            }
        } catch {
            fail(error)
        }
    }

    /// The TCP connection ended.
    public mutating func handleEOF() {
        guard state != .closed else { return }
        finish(code: WebSocketError.abnormalClosure, reason: "connection ended without a Close frame", byPeer: true)
    }

    /// When to give up waiting for the peer's Close.
    public func pollTimeout() -> Instant? { closeDeadline }

    /// Gives up on a peer that does not answer our Close.
    public mutating func handleTimeout(now: Instant) {
        guard let closeDeadline, now >= closeDeadline, state == .closing else { return }
        finish(code: WebSocketError.abnormalClosure, reason: "no Close from the peer in time", byPeer: false)
    }

    /// Bytes to write to the socket.
    public mutating func pollTransmit() -> [UInt8]? {
        guard !output.isEmpty else { return nil }
        defer { output = [] }
        return output
    }

    /// The next received message, pong or close.
    public mutating func pollEvent() -> WebSocketEvent? {
        events.popFirst()
    }

    private mutating func receive(_ frame: WebSocketFrame) throws(WebSocketError) {
        switch frame.opcode {
        case .ping:
            if state == .open { writeFrame(.pong, frame.payload, fin: true) }
        case .pong:
            events.append(.pong(frame.payload))
        case .close:
            try receiveClose(frame.payload)
        case .text, .binary:
            guard fragmentOpcode == nil else {
                throw WebSocketError(WebSocketError.protocolError, "new message before the last fragment of the previous one")
            }
            if frame.fin {
                try deliver(frame.opcode, frame.payload)
            } else {
                fragmentOpcode = frame.opcode
                fragments = frame.payload
            }
        case .continuation:
            guard let opcode = fragmentOpcode else {
                throw WebSocketError(WebSocketError.protocolError, "continuation frame without a message to continue")
            }
            guard fragments.count + frame.payload.count <= maxMessageSize else {
                throw WebSocketError(WebSocketError.messageTooBig, "message exceeds \(maxMessageSize) bytes")
            }
            fragments.append(contentsOf: frame.payload)
            if frame.fin {
                fragmentOpcode = nil
                let message = fragments
                fragments = []
                try deliver(opcode, message)
            }
        }
    }

    private mutating func deliver(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8]) throws(WebSocketError) {
        if opcode == .binary {
            events.append(.binary(payload))
            return
        }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw WebSocketError(WebSocketError.invalidPayload, "text message is not UTF-8")
        }
        events.append(.text(text))
    }

    /// Section 5.5.1 and 7.1.5: read the status and reason, echo the Close if we did not
    /// send one, and the handshake is complete.
    private mutating func receiveClose(_ payload: [UInt8]) throws(WebSocketError) {
        var code = WebSocketError.noStatusReceived
        var reason = ""
        if payload.count == 1 { throw WebSocketError(WebSocketError.protocolError, "Close payload of one byte") }
        if payload.count >= 2 {
            code = UInt16(payload[0]) << 8 | UInt16(payload[1])
            guard WebSocketError.isSendable(code) else {
                throw WebSocketError(WebSocketError.protocolError, "Close with status \(code)")
            }
            guard let text = String(validating: payload[2...], as: UTF8.self) else {
                throw WebSocketError(WebSocketError.invalidPayload, "Close reason is not UTF-8")
            }
            reason = text
        }
        if state == .open {
            let echo = code == WebSocketError.noStatusReceived ? [] : [payload[0], payload[1]]
            writeFrame(.close, echo, fin: true)
        }
        finish(code: code, reason: reason, byPeer: true)
    }

    /// _Fail the WebSocket Connection_ (section 7.1.7), sending Close with the error's code.
    private mutating func fail(_ error: WebSocketError) {
        if state == .open {
            writeFrame(.close, WebSocketFrame.closePayload(code: error.closeCode, reason: error.message), fin: true)
        }
        finish(code: error.closeCode, reason: error.message, byPeer: false)
    }

    private mutating func finish(code: UInt16, reason: String, byPeer: Bool) {
        state = .closed
        closeDeadline = nil
        fragments = []
        events.append(.closed(code: code, reason: reason, byPeer: byPeer))
    }
}
