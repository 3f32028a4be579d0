/// Why an HTTP request got no response.
public struct HTTPClientError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        /// EOF arrived before any byte of a status line: how SRS refuses a bad WHIP offer.
        public static let closedWithoutAnswer = Code("server closed the connection without an answer")
        /// EOF arrived in the middle of a response.
        public static let closedDuringResponse = Code("server closed the connection in the middle of a response")
        /// The response broke HTTP/1.1 framing or a limit (the message says which).
        public static let malformedResponse = Code("malformed response")
        /// No complete response within the configured time.
        public static let timedOut = Code("no response in time")
        /// The connection was closed before this request could be sent; retry elsewhere.
        public static let notSent = Code("connection closed before the request was sent")
        /// No connection could be made (refused, TLS failed, name unknown); the message says why.
        public static let noConnection = Code("no connection")
    }

    public var code: Code
    public var message: String
    /// The request this error belongs to.
    public var request: HTTPRequest

    public init(code: Code, message: String, request: HTTPRequest) {
        self.code = code
        self.message = message
        self.request = request
    }

    public var description: String { message.isEmpty ? code.name : "\(code.name): \(message)" }
}

/// What an `HTTPClientConnection` reports, one per request, in the order of `send`.
public enum HTTPClientEvent: Hashable, Sendable {
    case response(HTTPResponse, request: HTTPRequest)
    case failed(HTTPClientError)
}
