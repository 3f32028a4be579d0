import RTCBase

/// Incremental parser of HTTP/1.1 requests, for servers (RFC 9112 sections 3 and 6).
///
/// Feed bytes in pieces of any size with `append`; `next()` returns each request once
/// complete. Bodies are framed by `Content-Length` or chunked `Transfer-Encoding`; a
/// request with neither has no body.
public struct HTTPRequestParser: Sendable {
    private var core: HTTPMessageParser

    public init(limits: HTTPLimits = HTTPLimits()) {
        core = HTTPMessageParser(limits: limits)
    }

    /// Received bytes, in pieces of any size.
    public mutating func append(_ bytes: some Sequence<UInt8>) { core.append(bytes) }

    /// The next complete request, nil if more bytes are needed; throws on malformed
    /// input or a limit (codes `.headerTooLarge`, `.bodyTooLarge`).
    public mutating func next() throws(ParseError) -> HTTPRequest? {
        guard let message = try core.next(framing: HTTPRequestParser.framing) else { return nil }
        let (method, target, version) = message.head.startLine
        return HTTPRequest(method: HTTPMethod(method), target: target, headers: message.head.headers,
                           body: message.body, version: version, trailers: message.trailers)
    }

    /// Whether part of a request is buffered (for timeouts and for EOF handling).
    public var hasPartialRequest: Bool { core.hasPartialMessage }

    /// Bytes received after the last parsed request, e.g. the first WebSocket frames
    /// after an upgrade request; the parser forgets them.
    public mutating func takeRemainingBytes() -> [UInt8] { core.takeRemaining() }

    static func framing(_ head: HTTPMessageParser.Head) throws(ParseError) -> HTTPMessageParser.Framing {
        let (method, target, version) = head.startLine
        guard method.utf8.allSatisfy(HTTPMessageParser.isTokenByte) else { throw .invalid("method \(method) is not a token") }
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { throw .invalid("request target with a control or non-ASCII byte") }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { throw ParseError(.unsupported, "version \(version)") }
        if head.headers.contains("Transfer-Encoding") {
            guard HTTPMessageFraming.isChunked(head.headers) else {
                throw .invalid("request Transfer-Encoding does not end in chunked")
            }
            return .chunked
        }
        return try contentLength(head.headers).map { .length($0) } ?? .none
    }

    /// The `Content-Length` value; repeated equal values are accepted (RFC 9112 section 6.3).
    static func contentLength(_ headers: HTTPHeaders) throws(ParseError) -> Int? {
        let values = headers.tokens("Content-Length")
        guard let first = values.first else { return nil }
        guard values.allSatisfy({ $0 == first }), first.utf8.count <= 18, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let length = Int(first)
        else { throw .invalid("Content-Length \(values.joined(separator: ",")) is not one decimal number") }
        return length
    }
}
