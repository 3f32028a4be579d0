import Net
import RTCBase
import SDP

/// The queues every adapter needs: numbered outgoing requests, events, and the finished
/// flag after which nothing more goes out.
struct CallSetupOutbox: Sendable {
    private var nextID = 1
    private var requests = FIFO<CallSetupRequest>()
    private var events = FIFO<CallSetupEvent>()
    /// `.failed` or `.closed` was reported.
    private(set) var isFinished = false

    /// Queues a request and returns its id.
    @discardableResult
    mutating func send(_ request: HTTPRequest, to endpoint: Endpoint, timeout: Duration) -> Int {
        let id = nextID
        nextID += 1
        requests.append(CallSetupRequest(id: id, endpoint: endpoint, request: request, timeout: timeout))
        return id
    }

    mutating func emit(_ event: CallSetupEvent) {
        guard !isFinished else { return }
        if case .failed = event { isFinished = true }
        if case .closed = event { isFinished = true }
        events.append(event)
    }

    mutating func fail(_ code: CallSetupError.Code, _ message: String, retryAfter: RetryAfter? = nil) {
        emit(.failed(CallSetupError(code, message, retryAfter: retryAfter)))
    }

    mutating func pollRequest() -> CallSetupRequest? { requests.popFirst() }
    mutating func pollEvent() -> CallSetupEvent? { events.popFirst() }

    /// At most `limit` characters of a server's body, for quoting in a message.
    static func quote(_ body: [UInt8], limit: Int = 300) -> String {
        let text = String(decoding: body.prefix(limit), as: UTF8.self)
        return body.count > limit ? text + "…" : text
    }

    /// Checks the server's SDP: it must parse and have at least one media section (SRS
    /// answers an offer without msid/ssrc with none). Returns the failure, or nil.
    static func checkRemoteSDP(_ sdp: String, from server: String) -> CallSetupError? {
        let description: SessionDescription
        do {
            description = try SessionDescription.parse(sdp)
        } catch {
            return CallSetupError(.badAnswer, "\(server) sent SDP that does not parse (\(error)): \(quote(Array(sdp.utf8), limit: 120))")
        }
        guard !description.media.isEmpty else {
            return CallSetupError(.badAnswer, "answer has no media sections: check msid/ssrc (\(server) sent \(sdp.utf8.count) bytes of SDP)")
        }
        return nil
    }
}
