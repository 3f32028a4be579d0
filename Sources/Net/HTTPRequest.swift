/// An HTTP/1.1 request (RFC 9112 section 3): request line, fields, body, trailers.
public struct HTTPRequest: Hashable, Sendable {
    public var method: HTTPMethod
    /// The request target as sent, normally origin-form (`/path?query`).
    public var target: String
    /// `HTTP/1.1` or `HTTP/1.0`, as received; always `HTTP/1.1` for built requests.
    public var version: String
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Fields that followed a chunked body (RFC 9112 section 7.1.2).
    public var trailers: HTTPHeaders

    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                version: String = "HTTP/1.1", trailers: HTTPHeaders = [:]) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.trailers = trailers
    }

    /// A request for `endpoint` with its `Host` field first, then `headers`.
    public init(method: HTTPMethod, endpoint: Endpoint, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        var all = HTTPHeaders([("Host", endpoint.hostHeader)])
        for field in headers { all.add(field.name, field.value) }
        self.init(method: method, target: endpoint.requestTarget, headers: all, body: body)
    }

    /// Whether the sender wants the connection kept open after this exchange
    /// (RFC 9112 section 9.3: HTTP/1.1 persists unless `close`; 1.0 only with keep-alive).
    public var keepsAlive: Bool { HTTPMessageFraming.keepsAlive(version: version, headers: headers) }

    /// The bytes on the wire. `Content-Length` is added when the body is not empty, or
    /// the method carries content (POST, PUT, PATCH), and no framing field is present;
    /// a body with `Transfer-Encoding: chunked` is sent as one chunk.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + target.utf8.count + body.count)
        out.append(contentsOf: "\(method.rawValue) \(target) \(version)\r\n".utf8)
        let needsLength = !body.isEmpty || [.post, .put, .patch].contains(method)
        HTTPMessageFraming.writeFieldsAndBody(headers, body: body, trailers: trailers, addLength: needsLength, into: &out)
        return out
    }
}
