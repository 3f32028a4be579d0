import RTCBase

/// What an `HTTPServerConnection` reports.
public enum HTTPServerEvent: Hashable, Sendable {
    /// A complete request; answer it with `respond` before the next one is reported.
    case request(HTTPRequest)
    /// The client sent something unparsable or too large. An error response (400, 413,
    /// 431 or 505) with `Connection: close` has been queued; the connection is closing.
    case badRequest(ParseError)
    /// A request did not arrive completely within `requestTimeout` (a 408 was queued),
    /// or the connection sat idle for `idleTimeout`; it is closing.
    case timedOut(idle: Bool)
}

/// One HTTP/1.1 server connection as a sans-IO state machine (RFC 9112 section 9).
///
/// Requests are reported one at a time: the next pipelined request is parsed only after
/// the current one has been answered, so responses always leave in request order and the
/// bytes after an upgrade request stay untouched for the new protocol. Keep-alive follows
/// the request and the response; `isClosed` tells the driver to close after flushing.
/// Slow senders are cut off after `requestTimeout`, idle connections after `idleTimeout`.
public struct HTTPServerConnection: Sendable {
    /// Time from the first byte of a request to its last.
    public var requestTimeout: Duration
    /// Time a kept-alive connection may sit with no request.
    public var idleTimeout: Duration
    private var parser: HTTPRequestParser
    private var current: HTTPRequest?
    private var output: [UInt8] = []
    private var events = FIFO<HTTPServerEvent>()
    private var peerClosed = false
    /// When the request now arriving began, and when the connection last became idle.
    private var requestStart: Instant?
    private var idleSince: Instant
    private var lastReceive: Instant
    /// The connection is finished; close the socket once `pollTransmit` is empty.
    public private(set) var isClosed = false
    /// True after a `101 Switching Protocols` response; see `takeUpgradedBytes`.
    public private(set) var isUpgraded = false

    public init(limits: HTTPLimits = HTTPLimits(), requestTimeout: Duration = .seconds(10),
                idleTimeout: Duration = .seconds(60), now: Instant) {
        parser = HTTPRequestParser(limits: limits)
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        idleSince = now
        lastReceive = now
    }

    /// Bytes received from the client.
    public mutating func handle(_ bytes: some Sequence<UInt8>, now: Instant) {
        guard !isClosed, !isUpgraded else { return }
        parser.append(bytes)
        lastReceive = now
        if requestStart == nil && current == nil && parser.hasPartialRequest { requestStart = now }
    }

    /// The client closed its side. A request being answered can still be answered.
    public mutating func handleEOF() {
        peerClosed = true
        if current == nil && !isUpgraded && !parser.hasPartialRequest { isClosed = true }
    }

    /// When `handleTimeout` must run next; nil while the application owes a response.
    public func pollTimeout() -> Instant? {
        guard !isClosed, !isUpgraded, current == nil else { return nil }
        if let requestStart { return requestStart + requestTimeout }
        return idleSince + idleTimeout
    }

    /// Queues a 408 for a request that is late, or closes an idle connection.
    public mutating func handleTimeout(now: Instant) {
        guard let deadline = pollTimeout(), now >= deadline else { return }
        if requestStart != nil {
            queueError(status: 408, "request not complete within \(requestTimeout)")
            events.append(.timedOut(idle: false))
        } else {
            isClosed = true
            events.append(.timedOut(idle: true))
        }
    }

    /// The next request (or a bad-request or timeout report) once the previous one is
    /// answered.
    public mutating func pollEvent() -> HTTPServerEvent? {
        if let event = events.popFirst() { return event }
        guard !isClosed, !isUpgraded, current == nil else { return nil }
        do {
            guard let request = try parser.next() else {
                if peerClosed { isClosed = true }
                return nil
            }
            current = request
            requestStart = nil
            return .request(request)
        } catch {
            queueError(status: HTTPServerConnection.status(for: error), error.description)
            return .badRequest(error)
        }
    }

    /// Answers the current request. Adds `Connection: close` when the connection will
    /// close after it. Returns false when there is no request to answer.
    @discardableResult
    public mutating func respond(_ response: HTTPResponse, now: Instant) -> Bool {
        guard let request = current, !isClosed else { return false }
        current = nil
        var response = response
        let closing = peerClosed || !request.keepsAlive || !response.keepsAlive
        if closing && !response.headers.hasToken("close", in: "Connection") && response.status != 101 {
            response.headers.add("Connection", "close")
        } else if !closing && request.version == "HTTP/1.0" {
            response.headers.add("Connection", "keep-alive")
        }
        output.append(contentsOf: response.serialized())
        if response.status == 101 {
            isUpgraded = true
        } else if closing {
            isClosed = true
        }
        idleSince = now
        if parser.hasPartialRequest { requestStart = lastReceive }
        return true
    }

    /// After a 101: the bytes the client sent after its upgrade request.
    public mutating func takeUpgradedBytes() -> [UInt8] { parser.takeRemainingBytes() }

    /// Bytes to write to the socket.
    public mutating func pollTransmit() -> [UInt8]? {
        guard !output.isEmpty else { return nil }
        defer { output = [] }
        return output
    }

    private mutating func queueError(status: Int, _ message: String) {
        let response = HTTPResponse(status: status, headers: ["Content-Type": "text/plain", "Connection": "close"],
                                    body: Array("\(message)\n".utf8))
        output.append(contentsOf: response.serialized())
        isClosed = true
    }

    static func status(for error: ParseError) -> Int {
        switch error.code {
        case .headerTooLarge: 431
        case .bodyTooLarge: 413
        case .unsupported: 505
        default: 400
        }
    }
}
