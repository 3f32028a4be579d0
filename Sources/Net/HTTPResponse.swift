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
