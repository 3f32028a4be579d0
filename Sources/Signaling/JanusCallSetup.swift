import Net
import RTCBase

/// A call through Janus 1.1's REST API over HTTP with long polling (PROTOCOLS.md section
/// 5), as a sans-IO adapter: `JanusSession` runs the call, this carries its requests.
///
/// Each request is a POST of its own, to `/janus` (`create`), `/janus/<session>`
/// (`attach`, `keepalive`, `destroy`) or `/janus/<session>/<handle>`; a POST's answer is
/// its direct reply. One `GET /janus/<session>?maxev=N` is always outstanding while the
/// session lives and brings the events; three failed polls in a row end the call.
public struct JanusCallSetup: CallSetup {
    public var plugin: JanusPlugin { session.plugin }
    /// The API root, `http://127.0.0.1:8088/janus`.
    public let server: Endpoint
    /// Our offer; nil for a subscriber, whose offer comes from Janus.
    public var offer: String? { session.offer }
    public var keepaliveInterval: Duration {
        get { session.keepaliveInterval }
        set { session.keepaliveInterval = newValue }
    }
    /// Events per long-poll answer (`?maxev=`).
    public var maxEventsPerPoll: Int
    public var timeout: Duration
    /// How long a long poll may be held (Janus answers within 30 s).
    public var longPollTimeout: Duration
    public var sessionID: Int64? { session.sessionID }
    public var handleID: Int64? { session.handleID }
    /// The VideoRoom room, given or created.
    public var roomID: Int64? { session.roomID }
    /// Our publisher id in the VideoRoom (the `feed` subscribers ask for).
    public var feedID: Int64? { session.feedID }
    var session: JanusSession
    /// The transaction of each POST, by HTTP request id.
    private var postTransactions: [Int: String] = [:]
    private var longPoll: Int?
    private var longPollFailures = 0
    /// Numbers and queues the HTTP requests (the session's own outbox has the events).
    private var requests = CallSetupOutbox()

    /// - Parameters:
    ///   - server: Janus's API root, e.g. `http://127.0.0.1:8088/janus`.
    ///   - offer: our SDP offer (EchoTest, publisher); nil for a subscriber.
    ///   - seed: seeds the transaction strings, so runs repeat exactly.
    public init(server: Endpoint, plugin: JanusPlugin, offer: String?, seed: UInt64,
                keepaliveInterval: Duration = .seconds(25), maxEventsPerPoll: Int = 10,
                timeout: Duration = .seconds(10), longPollTimeout: Duration = .seconds(45)) {
        self.server = server
        session = JanusSession(plugin: plugin, offer: offer, seed: seed, keepaliveInterval: keepaliveInterval)
        self.maxEventsPerPoll = maxEventsPerPoll
        self.timeout = timeout
        self.longPollTimeout = longPollTimeout
    }

    public mutating func start(now: Instant) { session.start(now: now); flush() }
    public mutating func answer(_ sdp: String, now: Instant) { session.answer(sdp, now: now); flush() }
    public mutating func trickle(_ candidate: TrickleCandidate?, now: Instant) { session.trickle(candidate, now: now); flush() }
    public mutating func hangUp(now: Instant) { session.hangUp(now: now); flush() }
    public mutating func restartIce(offer: String, now: Instant) { session.restartIce(offer: offer, now: now); flush() }
    public func pollTimeout() -> Instant? { session.pollTimeout() }
    public mutating func handleTimeout(now: Instant) { session.handleTimeout(now: now); flush() }
    public mutating func pollRequest() -> CallSetupRequest? { requests.pollRequest() }
    public mutating func pollEvent() -> CallSetupEvent? { session.outbox.pollEvent() }

    public mutating func handle(_ result: HTTPClientEvent, for id: Int, now: Instant) {
        if id == longPoll {
            longPoll = nil
            receiveLongPoll(result, now: now)
            postRequests()
            return armLongPoll()
        }
        guard let transaction = postTransactions.removeValue(forKey: id) else { return }
        switch result {
        case .failed(let error):
            session.requestFailed(transaction, code: .noAnswer, now: now) { "Janus did not answer \($0): \(error)" }
        case .response(let response, _) where response.status != 200:
            session.requestFailed(transaction, code: .refused, now: now) {
                "Janus answered HTTP \(response.status) \(response.reason) to \($0): \(CallSetupOutbox.quote(response.body))"
            }
        case .response(let response, _):
            guard let json = try? JSONValue(parsing: response.body), let message = JanusMessage(json) else {
                return session.requestFailed(transaction, code: .badAnswer, now: now) {
                    "Janus answered \($0) with a body that is not a Janus message: \(CallSetupOutbox.quote(response.body))"
                }
            }
            session.receive(message, now: now)
        }
        flush()
    }

    // MARK: Carrying requests

    /// A new session's long poll first, then the session's requests.
    private mutating func flush() {
        armLongPoll()
        postRequests()
    }

    /// POSTs each queued request to the session (or handle) path.
    private mutating func postRequests() {
        while let request = session.pollRequest() {
            var endpoint = server
            endpoint.query = nil
            endpoint.path = path(request.sessionID, request.handleID)
            let post = HTTPRequest(method: .post, endpoint: endpoint, headers: ["Content-Type": "application/json"],
                                   body: Array(request.httpBody.serialized.utf8))
            postTransactions[requests.send(post, to: endpoint, timeout: timeout)] = request.transaction
        }
    }

    /// Keeps one long poll outstanding while the session lives.
    private mutating func armLongPoll() {
        guard longPoll == nil, longPollFailures < 3, let sessionID = session.sessionID, !session.isFinished else { return }
        if case .done = session.phase { return }
        var endpoint = server
        endpoint.path = path(sessionID)
        endpoint.query = "maxev=\(maxEventsPerPoll)"
        longPoll = requests.send(HTTPRequest(method: .get, endpoint: endpoint), to: endpoint, timeout: longPollTimeout)
    }

    private mutating func receiveLongPoll(_ result: HTTPClientEvent, now: Instant) {
        var problem: String?
        switch result {
        case .failed(let error) where error.code == .timedOut:
            break  // an idle poll; ask again
        case .failed(let error):
            problem = "\(error)"
        case .response(let response, _) where response.status != 200:
            problem = "HTTP \(response.status) \(response.reason): \(CallSetupOutbox.quote(response.body))"
        case .response(let response, _):
            do {
                let messages = try JanusMessage.messages(in: response.body)
                longPollFailures = 0
                for message in messages { session.receive(message, now: now) }
            } catch {
                problem = "a body that is not JSON (\(error)): \(CallSetupOutbox.quote(response.body))"
            }
        }
        guard let problem else { return }
        longPollFailures += 1
        guard longPollFailures >= 3 else { return }
        // During a teardown the POSTs finish it; otherwise the call is deaf.
        if case .tearingDown = session.phase { return }
        session.transportFailed(.noAnswer, "Janus long poll failed \(longPollFailures) times, last with \(problem)")
    }

    private func path(_ ids: Int64?...) -> String {
        let base = server.path.hasSuffix("/") ? String(server.path.dropLast()) : server.path
        return ids.compactMap { $0 }.reduce(base) { "\($0)/\($1)" }
    }
}
