/// Why a call could not be set up, in the server's words where it gave any.
public struct CallSetupError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The server said no (a non-zero SRS `code`, an HTTP error status, a Janus error).
        public static let refused = Code("refused")
        /// The server asked us to come back later (503, WHEP 409): see `retryAfter`.
        public static let retryLater = Code("retry later")
        /// No usable answer: the connection closed, timed out, or the HTTP was broken.
        public static let noAnswer = Code("no answer")
        /// An answer came but is unusable (not JSON, not SDP, no media sections).
        public static let badAnswer = Code("bad answer")
        /// The server ended a call that was set up (Janus `hangup`, `detached`).
        public static let ended = Code("ended by the server")
    }

    public var code: Code
    /// One sentence quoting the server, e.g. `SRS answered code 400: {"code":400}`.
    public var message: String
    /// The server's `Retry-After` (RFC 9110 section 10.2.3), when it sent one.
    public var retryAfter: RetryAfter?

    public init(_ code: Code, _ message: String, retryAfter: RetryAfter? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { message }
}
