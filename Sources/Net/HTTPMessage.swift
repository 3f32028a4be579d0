/// An HTTP request method (RFC 9110 section 9); any token is allowed.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { rawValue = name }

    public static let get = HTTPMethod("GET")
    public static let head = HTTPMethod("HEAD")
    public static let post = HTTPMethod("POST")
    public static let put = HTTPMethod("PUT")
    public static let patch = HTTPMethod("PATCH")
    public static let delete = HTTPMethod("DELETE")
    public static let options = HTTPMethod("OPTIONS")

    public var description: String { rawValue }
}

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

/// An HTTP/1.1 response (RFC 9112 section 4).
public struct HTTPResponse: Hashable, Sendable {
    public var status: Int
    public var reason: String
    public var version: String
    public var headers: HTTPHeaders
    public var body: [UInt8]
    public var trailers: HTTPHeaders

    public init(status: Int, reason: String? = nil, headers: HTTPHeaders = [:], body: [UInt8] = [],
                version: String = "HTTP/1.1", trailers: HTTPHeaders = [:]) {
        self.status = status
        self.reason = reason ?? HTTPResponse.standardReason(status)
        self.version = version
        self.headers = headers
        self.body = body
        self.trailers = trailers
    }

    /// The body as UTF-8 text (invalid sequences replaced).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Whether a response with this status never has content (RFC 9110 section 6.4.1).
    public var statusForbidsBody: Bool { (100..<200).contains(status) || status == 204 || status == 304 }

    public var keepsAlive: Bool { HTTPMessageFraming.keepsAlive(version: version, headers: headers) }

    /// The bytes on the wire; `Content-Length` is added unless the status forbids a body
    /// or a framing field is present; a `Transfer-Encoding: chunked` body goes as one chunk.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + body.count)
        out.append(contentsOf: "\(version) \(status) \(reason)\r\n".utf8)
        HTTPMessageFraming.writeFieldsAndBody(headers, body: statusForbidsBody ? [] : body, trailers: trailers,
                                              addLength: !statusForbidsBody, into: &out)
        return out
    }

    /// The usual reason phrase for the statuses rtcswarm meets (RFC 9110 section 15).
    public static func standardReason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 302: "Found"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}

/// Rules shared by requests and responses (RFC 9112 sections 6 and 9).
enum HTTPMessageFraming {
    static func keepsAlive(version: String, headers: HTTPHeaders) -> Bool {
        if headers.hasToken("close", in: "Connection") { return false }
        if version == "HTTP/1.0" { return headers.hasToken("keep-alive", in: "Connection") }
        return true
    }

    static func isChunked(_ headers: HTTPHeaders) -> Bool {
        guard let last = headers.tokens("Transfer-Encoding").last else { return false }
        return HTTPHeaders.equalNames(last, "chunked")
    }

    static func writeFieldsAndBody(_ headers: HTTPHeaders, body: [UInt8], trailers: HTTPHeaders, addLength: Bool,
                                   into out: inout [UInt8]) {
        headers.write(into: &out)
        let chunked = isChunked(headers)
        if addLength && !chunked && !headers.contains("Content-Length") {
            out.append(contentsOf: "Content-Length: \(body.count)\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        guard chunked else {
            out.append(contentsOf: body)
            return
        }
        if !body.isEmpty {
            out.append(contentsOf: String(body.count, radix: 16, uppercase: true).utf8)
            out.append(contentsOf: "\r\n".utf8)
            out.append(contentsOf: body)
            out.append(contentsOf: "\r\n".utf8)
        }
        out.append(contentsOf: "0\r\n".utf8)
        trailers.write(into: &out)
        out.append(contentsOf: "\r\n".utf8)
    }
}
