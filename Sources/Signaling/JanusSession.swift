import RTCBase

/// The transport-free core of a Janus call (PROTOCOLS.md section 5): `create` a session,
/// `attach` the plugin, run the plugin's negotiation (`JanusPlugin`), keep the session
/// alive, trickle, and tear down. It queues `JanusRequest`s and reads `JanusMessage`s;
/// `JanusCallSetup` carries them over HTTP with a long poll, `JanusWebSocketCallSetup`
/// over one WebSocket.
///
/// Results come either as the direct reply (`success`, `error`) or, after an `ack`, as
/// an `event`, which may come before the `ack` itself, so results are matched by
/// transaction, never by order. Events nobody asked for (`webrtcup`, `media`, `hangup`)
/// are taken only for our session and handle. Session, handle, room and feed ids are
/// 64-bit integers. A `keepalive` goes out when no request has for `keepaliveInterval`
/// (Janus drops sessions after 60 s of silence).
///
/// Teardown (`hangUp`): EchoTest `hangup`, `detach`, `destroy`; a publisher `unpublish`,
/// `leave`, destroys the room it created, then the session; a subscriber `leave`, then the
/// session. `.closed` comes when Janus confirms the session's destruction. After a
/// `.failed`, `hangUp` still destroys the session (no event follows).
struct JanusSession: Sendable {
    enum Step: String, Sendable {
        case create, attach, keepalive, trickle
        case echo = "message", createRoom = "create room", join, publish, start, restart = "ICE restart"
        case hangup, unpublish, leave, destroyRoom = "destroy room", detach, destroy
    }

    enum Phase: Sendable {
        case idle, settingUp, established, tearingDown, done
    }

    let plugin: JanusPlugin
    /// Our offer; nil for a subscriber, whose offer comes from Janus.
    let offer: String?
    var keepaliveInterval: Duration
    var sessionID: Int64?
    var handleID: Int64?
    /// The VideoRoom room, given or created.
    var roomID: Int64?
    /// Our publisher id in the VideoRoom (the `feed` subscribers ask for).
    var feedID: Int64?
    /// Messages for another session or handle, ignored.
    var foreignMessages = 0
    var phase: Phase = .idle
    var generator: SeededGenerator
    /// Transactions awaiting their result, with what they were for.
    var pending: [String: Step] = [:]
    var lastSent: Instant?
    var hangUpRequested = false
    var createdRoom = false
    var joined = false
    var published = false
    var teardown: [Step] = []
    var destroySent = false
    var queuedTrickles: [JSONValue] = []
    var outbox = CallSetupOutbox()
    private var requests = FIFO<JanusRequest>()

    /// `seed` seeds the transaction strings, so runs repeat exactly.
    init(plugin: JanusPlugin, offer: String?, seed: UInt64, keepaliveInterval: Duration) {
        self.plugin = plugin
        self.offer = offer
        generator = SeededGenerator(seed: seed)
        self.keepaliveInterval = keepaliveInterval
        if case .videoRoomSubscriber(let room, _) = plugin { roomID = room }
        if case .videoRoomPublisher(let room, _, _, _) = plugin { roomID = room }
    }

    var isFinished: Bool { outbox.isFinished }

    mutating func start(now: Instant) {
        guard case .idle = phase else { return }
        phase = .settingUp
        send(.create, ["janus": "create"], now: now)
    }

    /// Our answer to the subscriber offer: `start` with the answer as JSEP.
    mutating func answer(_ sdp: String, now: Instant) {
        guard case .settingUp = phase, plugin.serverOffers, handleID != nil else { return }
        send(.start, ["janus": "message", "body": JanusPlugin.startBody,
                      "jsep": .object(["type": "answer", "sdp": .string(sdp)])], now: now)
    }

    /// `{"janus":"trickle","candidate":{candidate, sdpMid, sdpMLineIndex}}`, or
    /// `{"completed":true}` at the end; held until the handle exists.
    mutating func trickle(_ candidate: TrickleCandidate?, now: Instant) {
        let body: JSONValue = candidate.map {
            .object(["candidate": .string($0.candidate.hasPrefix("candidate:") ? $0.candidate : "candidate:" + $0.candidate),
                     "sdpMid": .string($0.mid), "sdpMLineIndex": .integer(Int64($0.mLineIndex))])
        } ?? .object(["completed": true])
        queuedTrickles.append(body)
        sendTrickles(now: now)
    }

    mutating func hangUp(now: Instant) {
        if outbox.isFinished {
            // After a failure, still release the session Janus keeps for us.
            guard sessionID != nil, !destroySent else { return }
            destroySent = true
            return send(.destroy, ["janus": "destroy"], now: now)
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

    /// When the next keepalive is due.
    func pollTimeout() -> Instant? {
        guard let lastSent, sessionID != nil else { return nil }
        switch phase {
        case .settingUp, .established: return lastSent + keepaliveInterval
        default: return nil
        }
    }

    mutating func handleTimeout(now: Instant) {
        guard let deadline = pollTimeout(), now >= deadline else { return }
        send(.keepalive, ["janus": "keepalive"], now: now)
    }

    mutating func pollRequest() -> JanusRequest? { requests.popFirst() }

    /// Whether `transaction` still waits for its result.
    func isPending(_ transaction: String) -> Bool { pending[transaction] != nil }

    /// The transport could not get `transaction` a result; `message` words the failure
    /// from the step's name.
    mutating func requestFailed(_ transaction: String, code: CallSetupError.Code, now: Instant,
                                _ message: (_ step: String) -> String) {
        guard let step = pending.removeValue(forKey: transaction) else { return }
        stepFailed(step, message(step.rawValue), code: code, now: now)
    }

    /// The transport itself is gone (a dead long poll, a closed WebSocket).
    mutating func transportFailed(_ code: CallSetupError.Code, _ message: String) {
        outbox.fail(code, message)
    }

    // MARK: Requests

    /// Queues `members` with a fresh `transaction`, for the session or handle the step needs.
    mutating func send(_ step: Step, _ members: KeyValuePairs<String, JSONValue>, now: Instant) {
        let transaction = newTransaction()
        var request = JanusRequest(transaction: transaction,
                                   members: members.map { JSONValue.Member($0.key, $0.value) })
        switch step {
        case .create: break
        case .attach, .keepalive, .destroy: request.sessionID = sessionID
        default:
            request.sessionID = sessionID
            request.handleID = handleID
        }
        requests.append(request)
        pending[transaction] = step
        lastSent = now
    }

    mutating func sendTrickles(now: Instant) {
        guard handleID != nil, !outbox.isFinished else { return }
        switch phase {
        case .settingUp, .established: break
        default: return
        }
        let trickles = queuedTrickles
        queuedTrickles = []
        for candidate in trickles { send(.trickle, ["janus": "trickle", "candidate": candidate], now: now) }
    }

    /// Twelve letters and digits, like janus.js's.
    private mutating func newTransaction() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let bytes = (0..<12).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
