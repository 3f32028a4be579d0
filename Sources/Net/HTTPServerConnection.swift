import RTCBase

/// What an `HTTPServerConnection` reports.
public enum HTTPServerEvent: Hashable, Sendable {
    /// A complete request; answer it with `respond` before the next one is reported.
    case request(HTTPRequest)
    /// The client sent something unparsable or too large. An error response (400, 413,
    /// 431 or 505) with `Connection: close` has been queued; the connection is closing.
    case badRequest(ParseError)
}

/// One HTTP/1.1 server connection as a sans-IO state machine (RFC 9112 section 9).
///
/// Requests are reported one at a time: the next pipelined request is parsed only after
/// the current one has been answered, so responses always leave in request order and the
/// bytes after an upgrade request stay untouched for the new protocol. Keep-alive follows
/// the request and the response; `isClosed` tells the driver to close after flushing.
public struct HTTPServerConnection: Sendable {
    private var parser: HTTPRequestParser
    private var current: HTTPRequest?
    private var output: [UInt8] = []
    private var peerClosed = false
    public private(set) var isClosed = false
    /// True after a `101 Switching Protocols` response; see `takeUpgradedBytes`.
    public private(set) var isUpgraded = false

    public init(limits: HTTPLimits = HTTPLimits()) {
        parser = HTTPRequestParser(limits: limits)
    }

    /// Bytes received from the client.
    public mutating func handle(_ bytes: some Sequence<UInt8>) {
        guard !isClosed, !isUpgraded else { return }
        parser.append(bytes)
    }

    /// The client closed its side. A request being answered can still be answered.
    public mutating func handleEOF() {
        peerClosed = true
        if current == nil && !isUpgraded { isClosed = true }
    }

    /// The next request (or a bad-request report) once the previous one is answered.
    public mutating func pollEvent() -> HTTPServerEvent? {
        guard !isClosed, !isUpgraded, current == nil else { return nil }
        do {
            guard let request = try parser.next() else {
                if peerClosed { isClosed = true }
                return nil
            }
            current = request
            return .request(request)
        } catch {
            var response = HTTPResponse(status: HTTPServerConnection.status(for: error))
            response.headers.add("Content-Type", "text/plain")
            response.body = Array("\(error)\n".utf8)
            response.headers.add("Connection", "close")
            output.append(contentsOf: response.serialized())
            isClosed = true
            return .badRequest(error)
        }
    }

    /// Answers the current request. Adds `Connection: close` when the connection will
    /// close after it. Returns false when there is no request to answer.
    @discardableResult
    public mutating func respond(_ response: HTTPResponse) -> Bool {
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
        return true
    }

    /// After a 101: the bytes the client sent after its upgrade request.
    public mutating func takeUpgradedBytes() -> [UInt8] { parser.takeRemainingBytes() }

    /// Whether a request is partly received (for a header timeout in the driver).
    public var hasPartialRequest: Bool { parser.hasPartialRequest }

    public mutating func pollTransmit() -> [UInt8]? {
        guard !output.isEmpty else { return nil }
        defer { output = [] }
        return output
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
