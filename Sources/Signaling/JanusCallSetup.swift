import Net
import RTCBase

/// A call through Janus 1.1's REST API over HTTP with long polling (PROTOCOLS.md section
/// 5), as a sans-IO adapter: `create` a session, `attach` the plugin, run the plugin's
/// negotiation (`JanusPlugin`), keep the session alive, trickle, and tear down.
///
/// Every POST carries a `transaction`; results come either in the POST's own answer
/// (`success`, `error`) or, after an `ack`, as an `event` on the long poll, which may come
/// before the `ack` itself, so results are matched by transaction, never by order. One
/// `GET /janus/<session>?maxev=N` is always outstanding while the session lives. Session,
/// handle, room and feed ids are 64-bit integers. A `keepalive` goes out when no POST has
/// for `keepaliveInterval` (Janus drops sessions after 60 s of silence).
///
/// Teardown (`hangUp`): EchoTest `hangup`, `detach`, `destroy`; a publisher `unpublish`,
/// `leave`, destroys the room it created, then the session; a subscriber `leave`, then the
/// session. `.closed` comes when Janus confirms the session's destruction. After a
/// `.failed`, `hangUp` still destroys the session (no event follows).
public struct JanusCallSetup: CallSetup {
    enum Step: String, Sendable {
        case create, attach, keepalive, trickle
        case echo = "message", createRoom = "create room", join, publish, start
        case hangup, unpublish, leave, destroyRoom = "destroy room", detach, destroy
    }

    enum Phase: Sendable {
        case idle, settingUp, established, tearingDown, done
    }

    public let plugin: JanusPlugin
    /// The API root, `http://127.0.0.1:8088/janus`.
    public let server: Endpoint
    /// Our offer; nil for a subscriber, whose offer comes from Janus.
    public let offer: String?
    public var keepaliveInterval: Duration
    /// Events per long-poll answer (`?maxev=`).
    public var maxEventsPerPoll: Int
    public var timeout: Duration
    /// How long a long poll may be held (Janus answers within 30 s).
    public var longPollTimeout: Duration
    public internal(set) var sessionID: Int64?
    public internal(set) var handleID: Int64?
    /// The VideoRoom room, given or created.
    public internal(set) var roomID: Int64?
    /// Our publisher id in the VideoRoom (the `feed` subscribers ask for).
    public internal(set) var feedID: Int64?
    var phase: Phase = .idle
    var generator: SeededGenerator
    /// Transactions awaiting their result, with what they were for.
    var pending: [String: Step] = [:]
    /// HTTP request id of each POST, to its transaction.
    var postTransactions: [Int: String] = [:]
    var longPoll: Int?
    var longPollFailures = 0
    var lastPost: Instant?
    var hangUpRequested = false
    var createdRoom = false
    var joined = false
    var published = false
    var teardown: [Step] = []
    var destroySent = false
    var queuedTrickles: [JSONValue] = []
    var outbox = CallSetupOutbox()

    /// - Parameters:
    ///   - server: Janus's API root, e.g. `http://127.0.0.1:8088/janus`.
    ///   - offer: our SDP offer (EchoTest, publisher); nil for a subscriber.
    ///   - seed: seeds the transaction strings, so runs repeat exactly.
    public init(server: Endpoint, plugin: JanusPlugin, offer: String?, seed: UInt64,
                keepaliveInterval: Duration = .seconds(25), maxEventsPerPoll: Int = 10,
                timeout: Duration = .seconds(10), longPollTimeout: Duration = .seconds(45)) {
        self.server = server
        self.plugin = plugin
        self.offer = offer
        generator = SeededGenerator(seed: seed)
        self.keepaliveInterval = keepaliveInterval
        self.maxEventsPerPoll = maxEventsPerPoll
        self.timeout = timeout
        self.longPollTimeout = longPollTimeout
        if case .videoRoomSubscriber(let room, _) = plugin { roomID = room }
        if case .videoRoomPublisher(let room, _, _, _) = plugin { roomID = room }
    }

    public mutating func start(now: Instant) {
        guard case .idle = phase else { return }
        phase = .settingUp
        post(.create, ["janus": "create"], now: now)
    }

    /// Our answer to the subscriber offer: `start` with the answer as JSEP.
    public mutating func answer(_ sdp: String, now: Instant) {
        guard case .settingUp = phase, plugin.serverOffers, handleID != nil else { return }
        post(.start, ["janus": "message", "body": .object(["request": "start"]),
                      "jsep": .object(["type": "answer", "sdp": .string(sdp)])], now: now)
    }

    /// `{"janus":"trickle","candidate":{candidate, sdpMid, sdpMLineIndex}}`, or
    /// `{"completed":true}` at the end; held until the handle exists.
    public mutating func trickle(_ candidate: TrickleCandidate?, now: Instant) {
        let body: JSONValue = candidate.map {
            .object(["candidate": .string($0.candidate.hasPrefix("candidate:") ? $0.candidate : "candidate:" + $0.candidate),
                     "sdpMid": .string($0.mid), "sdpMLineIndex": .integer(Int64($0.mLineIndex))])
        } ?? .object(["completed": true])
        queuedTrickles.append(body)
        sendTrickles(now: now)
    }

    public mutating func hangUp(now: Instant) {
        if outbox.isFinished {
            // After a failure, still release the session Janus keeps for us.
            guard sessionID != nil, !destroySent else { return }
            destroySent = true
            return post(.destroy, ["janus": "destroy"], now: now)
        }
        switch phase {
        case .idle:
            phase = .done
            outbox.emit(.closed)
        case .settingUp where sessionID == nil:
            hangUpRequested = true
        case .settingUp, .established:
            beginTeardown(now: now)
        case .tearingDown, .done:
            return
        }
    }

    public func pollTimeout() -> Instant? {
        guard let lastPost, sessionID != nil else { return nil }
        switch phase {
        case .settingUp, .established: return lastPost + keepaliveInterval
        default: return nil
        }
    }

    public mutating func handleTimeout(now: Instant) {
        guard let deadline = pollTimeout(), now >= deadline else { return }
        post(.keepalive, ["janus": "keepalive"], now: now)
    }

    public mutating func pollRequest() -> CallSetupRequest? { outbox.pollRequest() }
    public mutating func pollEvent() -> CallSetupEvent? { outbox.pollEvent() }

    // MARK: Requests

    /// POSTs `members` plus a fresh `transaction` to the session (or handle) path.
    mutating func post(_ step: Step, _ members: KeyValuePairs<String, JSONValue>, now: Instant) {
        let transaction = newTransaction()
        var object = members.map { JSONValue.Member($0.key, $0.value) }
        object.append(JSONValue.Member("transaction", .string(transaction)))
        var endpoint = server
        endpoint.query = nil
        switch step {
        case .create: break
        case .attach, .keepalive, .destroy: endpoint.path = path(sessionID)
        default: endpoint.path = path(sessionID, handleID)
        }
        let request = HTTPRequest(method: .post, endpoint: endpoint, headers: ["Content-Type": "application/json"],
                                  body: Array(JSONValue.object(object).serialized.utf8))
        let id = outbox.send(request, to: endpoint, timeout: timeout)
        pending[transaction] = step
        postTransactions[id] = transaction
        lastPost = now
    }

    /// Keeps one long poll outstanding while the session lives.
    mutating func armLongPoll() {
        guard longPoll == nil, let sessionID, !outbox.isFinished else { return }
        if case .done = phase { return }
        var endpoint = server
        endpoint.path = path(sessionID)
        endpoint.query = "maxev=\(maxEventsPerPoll)"
        let request = HTTPRequest(method: .get, endpoint: endpoint)
        longPoll = outbox.send(request, to: endpoint, timeout: longPollTimeout)
    }

    mutating func sendTrickles(now: Instant) {
        guard handleID != nil, !outbox.isFinished else { return }
        switch phase {
        case .settingUp, .established: break
        default: return
        }
        let trickles = queuedTrickles
        queuedTrickles = []
        for candidate in trickles { post(.trickle, ["janus": "trickle", "candidate": candidate], now: now) }
    }

    private func path(_ ids: Int64?...) -> String {
        let base = server.path.hasSuffix("/") ? String(server.path.dropLast()) : server.path
        return ids.compactMap { $0 }.reduce(base) { "\($0)/\($1)" }
    }

    /// Twelve letters and digits, like janus.js's.
    private mutating func newTransaction() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let bytes = (0..<12).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
