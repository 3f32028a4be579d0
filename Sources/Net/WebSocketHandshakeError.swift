/// Why an opening handshake failed (RFC 6455 section 4.1, client steps 1-6).
public struct WebSocketHandshakeError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    /// The server's response, when there was one (e.g. Socket.IO's 400 for `EIO=3`).
    public var response: HTTPResponse?

    public init(_ message: String, response: HTTPResponse? = nil) {
        self.message = message
        self.response = response
    }

    public var description: String {
        guard let response else { return message }
        return "\(message) (HTTP \(response.status) \(response.reason))"
    }
}
