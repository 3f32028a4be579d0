import Net
import RTCBase

/// One HTTP request an adapter wants sent, on a new connection to `endpoint`.
public struct CallSetupRequest: Hashable, Sendable {
    /// Names this request in `handle(_:for:now:)`.
    public var id: Int
    /// Where to connect (scheme, host, port); the request target is already in `request`.
    public var endpoint: Endpoint
    public var request: HTTPRequest
    /// How long the response may take (a Janus long poll waits up to 30 s).
    public var timeout: Duration

    public init(id: Int, endpoint: Endpoint, request: HTTPRequest, timeout: Duration) {
        self.id = id
        self.endpoint = endpoint
        self.request = request
        self.timeout = timeout
    }
}
