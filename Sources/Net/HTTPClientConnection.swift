import RTCBase

/// One HTTP/1.1 client connection as a sans-IO state machine (RFC 9112 section 9).
///
/// Requests are queued by `send` and written one at a time: the next goes out when the
/// previous response is complete, so a server that closes after answering never loses a
/// pipelined request. Received bytes go to `handle(_:now:)`, EOF to `handleEOF`; every
/// request yields exactly one event. After `Connection: close`, an error, a timeout or
/// EOF, `isClosed` is true, and the driver closes the socket once `pollTransmit` is empty.
/// A `101` also ends the connection's HTTP life: upgrade with `WebSocketClientHandshake`.
public struct HTTPClientConnection: Sendable {
    /// How long a sent request may wait for its complete response; raise it for long
    /// polls (Janus holds a GET up to 30 s).
    public var responseTimeout: Duration
    private var parser: HTTPResponseParser
    private var queue = FIFO<HTTPRequest>()
    private var inFlight: HTTPRequest?
    private var deadline: Instant?
    private var output: [UInt8] = []
    private var events = FIFO<HTTPClientEvent>()
    /// The connection is finished; close the socket once `pollTransmit` is empty.
    public private(set) var isClosed = false

    public init(limits: HTTPLimits = HTTPLimits(), responseTimeout: Duration = .seconds(10)) {
        parser = HTTPResponseParser(limits: limits)
        self.responseTimeout = responseTimeout
    }

    /// Requests sent or queued whose event has not been produced yet.
    public var outstandingRequests: Int { queue.count + (inFlight == nil ? 0 : 1) }

    /// Queues `request`; it is written now if the connection is idle.
    public mutating func send(_ request: HTTPRequest, now: Instant) {
        guard !isClosed else {
            report(.failed(HTTPClientError(code: .notSent, message: "", request: request)))
            return
        }
        queue.append(request)
        writeNext(now: now)
    }

    /// Bytes received from the server.
    public mutating func handle(_ bytes: some Sequence<UInt8>, now: Instant) {
        guard !isClosed else { return }
        parser.append(bytes)
        do {
            while let response = try parser.next() {
                guard let request = inFlight else {
                    fail(.malformedResponse, "response \(response.status) without a request")
                    return
                }
                inFlight = nil
                deadline = nil
                report(.response(response, request: request))
                if !response.keepsAlive || !request.keepsAlive || response.status == 101 {
                    close()
                    return
                }
                writeNext(now: now)
            }
        } catch {
            fail(.malformedResponse, error.description)
        }
    }

    /// The server closed its side (read returned 0).
    public mutating func handleEOF() {
        guard !isClosed else { return }
        let partial = parser.hasPartialResponse
        do {
            if let response = try parser.finish(), let request = inFlight {
                inFlight = nil
                report(.response(response, request: request))
            }
        } catch {
            fail(.closedDuringResponse, error.description)
            return
        }
        fail(partial ? .closedDuringResponse : .closedWithoutAnswer, "")
    }

    /// The earliest time `handleTimeout` must be called, if a response is awaited.
    public func pollTimeout() -> Instant? { deadline }

    /// Fails the request in flight with `.timedOut` once its deadline has passed.
    public mutating func handleTimeout(now: Instant) {
        guard let deadline, now >= deadline else { return }
        fail(.timedOut, "after \(responseTimeout)")
    }

    /// Bytes to write to the socket.
    public mutating func pollTransmit() -> [UInt8]? {
        guard !output.isEmpty else { return nil }
        defer { output = [] }
        return output
    }

    /// The next response or failure, in the order the requests were sent.
    public mutating func pollEvent() -> HTTPClientEvent? {
        events.popFirst()
    }

    private mutating func writeNext(now: Instant) {
        guard inFlight == nil, let request = queue.popFirst() else { return }
        inFlight = request
        parser.expectResponse(to: request.method)
        output.append(contentsOf: request.serialized())
        deadline = now + responseTimeout
    }

    private mutating func report(_ event: HTTPClientEvent) { events.append(event) }

    /// Fails the request in flight with `code`, the queued ones as not sent, and closes.
    private mutating func fail(_ code: HTTPClientError.Code, _ message: String) {
        if let request = inFlight {
            report(.failed(HTTPClientError(code: code, message: message, request: request)))
        }
        inFlight = nil
        close()
    }

    private mutating func close() {
        isClosed = true
        deadline = nil
        for request in queue.removeAll() {
            report(.failed(HTTPClientError(code: .notSent, message: "", request: request)))
        }
    }
}
