import EventLoop
import Net
import RTCBase

/// One HTTP request on a TCP connection of its own (TLS for `https`), driven on the loop:
/// the sans-IO `HTTPClientConnection` frames it, this class carries its bytes, and the one
/// `HTTPClientEvent` it ends with goes to `completion`. Signaling adapters (SRS, WHIP,
/// Janus) use one per request; a Janus long poll is one that simply waits longer.
public final class HTTPClientHost {
    public let loop: EventLoop
    private var http: HTTPClientConnection
    private let request: HTTPRequest
    private let stream: ClientStream
    private let timer: DeadlineTimer
    private var completion: ((HTTPClientEvent) -> Void)?

    /// The exchange has ended (answered, failed or cancelled).
    public var isFinished: Bool { completion == nil }

    /// Connects to `address` and sends `request` (whose `Host` field names the server);
    /// `tls` wraps the exchange in TLS for `serverName`. A connection that fails is
    /// reported through `completion` as a failed request, like every other failure.
    public init(loop: EventLoop, address: SocketAddress, request: HTTPRequest, timeout: Duration,
                tls: (context: TLSClientContext, serverName: String)? = nil,
                completion: @escaping (HTTPClientEvent) -> Void) throws {
        self.loop = loop
        self.request = request
        self.completion = completion
        http = HTTPClientConnection(responseTimeout: timeout)
        timer = DeadlineTimer(loop: loop)
        stream = try ClientStream(loop: loop, to: address, tls: tls)
        http.send(request, now: loop.now())
        stream.onConnected = { [weak self] in self?.drive() }
        stream.onFailure = { [weak self] reason in self?.fail(reason) }
        stream.onData = { [weak self] bytes in
            guard let self else { return }
            self.http.handle(bytes, now: self.loop.now())
            self.drive()
        }
        stream.onEOF = { [weak self] in
            guard let self else { return }
            self.http.handleEOF()
            self.drive()
        }
    }

    /// Drops the request without a result (a long poll no longer needed).
    public func cancel() {
        completion = nil
        timer.cancel()
        stream.close()
    }

    private func drive() {
        while let bytes = http.pollTransmit() { stream.write(bytes) }
        if let event = http.pollEvent() {
            finish(event)
            return
        }
        timer.arm(at: http.pollTimeout()) { [weak self] in
            guard let self else { return }
            self.http.handleTimeout(now: self.loop.now())
            self.drive()
        }
    }

    private func fail(_ reason: String) {
        finish(HTTPClientHost.failure(of: request, reason: reason, now: loop.now()))
    }

    /// A failure below HTTP (connect, TLS, name resolution) in HTTP's terms: `request`
    /// failed with code "no connection" and `reason` as its message.
    public static func failure(of request: HTTPRequest, reason: String, now: Instant) -> HTTPClientEvent {
        // HTTPClientError has no public initializer: take the one a closed connection
        // reports and restate its code and message.
        var probe = HTTPClientConnection()
        probe.send(request, now: now)
        probe.handleEOF()
        guard case .failed(var error)? = probe.pollEvent() else { return .response(HTTPResponse(status: 599), request: request) }
        error.code = HTTPClientError.Code("no connection")
        error.message = reason
        return .failed(error)
    }

    private func finish(_ event: HTTPClientEvent) {
        guard let completion else { return }
        self.completion = nil
        timer.cancel()
        stream.close()
        completion(event)
    }
}
