import RTCBase

/// Incremental parser of HTTP/1.1 responses, for clients (RFC 9112 sections 4 and 6).
///
/// The parser must know which responses answer a HEAD request (they have no body), so
/// the client calls `expectResponse(to:)` for every request it sends. Interim 1xx
/// responses other than 101 are skipped. After a `101 Switching Protocols` the parser
/// stops; `takeRemainingBytes()` returns what followed it.
public struct HTTPResponseParser: Sendable {
    private var core: HTTPMessageParser
    private var methods: [HTTPMethod] = []
    private var switched = false

    public init(limits: HTTPLimits = HTTPLimits()) {
        core = HTTPMessageParser(limits: limits)
    }

    /// Records that a request with `method` was sent; its response comes in this order.
    public mutating func expectResponse(to method: HTTPMethod) { methods.append(method) }

    /// Received bytes, in pieces of any size.
    public mutating func append(_ bytes: some Sequence<UInt8>) { core.append(bytes) }

    /// The next final response, nil if more bytes are needed (or after a 101).
    public mutating func next() throws(ParseError) -> HTTPResponse? {
        while !switched {
            let isHead = methods.first == .head
            guard let message = try core.next(framing: { head throws(ParseError) in
                try HTTPResponseParser.framing(head, answeringHead: isHead)
            }) else { return nil }
            let (version, statusText, reason) = message.head.startLine
            let status = Int(statusText) ?? 0
            let response = HTTPResponse(status: status, reason: reason, headers: message.head.headers, body: message.body,
                                        version: version, trailers: message.trailers)
            if (100..<200).contains(status) && status != 101 { continue }
            if !methods.isEmpty { methods.removeFirst() }
            switched = status == 101
            return response
        }
        return nil
    }

    /// The connection reached EOF: completes a response whose body runs until EOF.
    /// Returns nil if nothing was pending; throws if a response was cut off.
    public mutating func finish() throws(ParseError) -> HTTPResponse? {
        guard let message = try core.finish() else { return nil }
        let (version, statusText, reason) = message.head.startLine
        if !methods.isEmpty { methods.removeFirst() }
        return HTTPResponse(status: Int(statusText) ?? 0, reason: reason, headers: message.head.headers, body: message.body,
                            version: version, trailers: message.trailers)
    }

    /// Whether part of a response (at least one byte of its status line) is buffered.
    public var hasPartialResponse: Bool { core.hasPartialMessage }

    /// After a 101: the bytes that followed its head (the new protocol's first bytes).
    public mutating func takeRemainingBytes() -> [UInt8] { core.takeRemaining() }

    static func framing(_ head: HTTPMessageParser.Head, answeringHead: Bool) throws(ParseError) -> HTTPMessageParser.Framing {
        let (version, statusText, _) = head.startLine
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { throw .invalid("status line version \(version)") }
        guard statusText.utf8.count == 3, let status = Int(statusText), status >= 100 else {
            throw .invalid("status \(statusText) is not three digits")
        }
        if answeringHead || (100..<200).contains(status) || status == 204 || status == 304 { return .none }
        if head.headers.contains("Transfer-Encoding") {
            return HTTPMessageFraming.isChunked(head.headers) ? .chunked : .untilEOF
        }
        return try HTTPRequestParser.contentLength(head.headers).map { .length($0) } ?? .untilEOF
    }
}
