import RTCBase

/// One HTTP request on a connection of its own, ending in exactly one `HTTPClientEvent`:
/// the response, or why there is none (a refused connect, TLS, a timeout, EOF). Every
/// signaling adapter over HTTP (SRS, WHIP/WHEP, Janus with its long poll) and every stats
/// poll is a set of these; the servers close after answering, so connections are not reused.
public struct HTTPExchange: ConnectionMachine, Sendable {
    public let destination: StreamDestination
    public let request: HTTPRequest
    private var http: HTTPClientConnection
    private var outcome: HTTPClientEvent?
    private var reported = false

    /// `timeout` bounds the wait for the complete response (a Janus long poll waits 30 s).
    public init(to destination: StreamDestination, request: HTTPRequest, timeout: Duration, now: Instant) {
        self.destination = destination
        self.request = request
        http = HTTPClientConnection(responseTimeout: timeout)
        http.send(request, now: now)
    }

    /// Once the one event is out, the connection has no further use.
    public var isClosed: Bool { outcome != nil }

    public mutating func handle(_ bytes: [UInt8], now: Instant) {
        http.handle(bytes, now: now)
        collect()
    }

    public mutating func handleEOF(now: Instant) {
        http.handleEOF()
        collect()
    }

    public mutating func connectionFailed(_ reason: String, now: Instant) {
        guard outcome == nil else { return }
        outcome = .failed(HTTPClientError(code: .noConnection, message: reason, request: request))
    }

    public mutating func handleTimeout(now: Instant) {
        http.handleTimeout(now: now)
        collect()
    }

    public mutating func pollTransmit() -> [UInt8]? { outcome == nil ? http.pollTransmit() : nil }

    public mutating func pollEvent() -> HTTPClientEvent? {
        guard !reported, let outcome else { return nil }
        reported = true
        return outcome
    }

    public func pollTimeout() -> Instant? { outcome == nil ? http.pollTimeout() : nil }

    private mutating func collect() {
        if outcome == nil, let event = http.pollEvent() { outcome = event }
    }
}
