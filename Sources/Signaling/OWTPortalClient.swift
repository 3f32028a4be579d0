import Net
import RTCBase

/// A participant of an OWT conference (Intel Open WebRTC Toolkit; PROTOCOLS.md section 6)
/// as one sans-IO stream machine: optionally a token from the REST API, then the portal's
/// Socket.IO (Engine.IO v3 for the 2.x portals, v4 for newer ones) over WebSocket, where
/// every request is an emit with an ack `("ok" | "error", data)` and the portal pushes
/// `progress`, `stream`, `participant` and `text` notifications.
///
/// Requests: `login` at start; then `publish`, `subscribe` (each followed by `soac` with
/// the offer once the portal names the transport), candidates, `unpublish`,
/// `unsubscribe`, `text`, `logout`; `refreshReconnectionTicket` before the ticket expires,
/// and `relogin` with it on a new connection when the portal connection drops.
public struct OWTPortalClient: StreamMachine {
    public struct Configuration: Sendable {
        /// A token given outright, or one to ask the REST API for.
        public enum Credentials: Sendable { case token(String), rest(OWTRestToken) }

        public var credentials: Credentials
        /// Where the portal is; nil: the token's `host` and `secure`.
        public var portal: Endpoint?
        public var engineIO: SocketIOClientSession.EngineIOVersion
        /// `login {userAgent}`.
        public var userAgent: JSONValue
        /// How long a request may wait for its ack before the client gives up.
        public var requestTimeout: Duration
        /// How many times a dropped connection is reopened with `relogin`, and after how long.
        public var reloginAttempts: Int
        public var reloginDelay: Duration
        /// Seeds the WebSocket masks.
        public var seed: UInt64

        public init(credentials: Credentials, portal: Endpoint? = nil, engineIO: SocketIOClientSession.EngineIOVersion = .v3,
                    userAgent: JSONValue = .object(["sdk": .object(["type": "rtcswarm", "version": "1"])]),
                    requestTimeout: Duration = .seconds(10), reloginAttempts: Int = 3, reloginDelay: Duration = .seconds(1),
                    seed: UInt64 = 1) {
            self.credentials = credentials
            self.portal = portal
            self.engineIO = engineIO
            self.userAgent = userAgent
            self.requestTimeout = requestTimeout
            self.reloginAttempts = reloginAttempts
            self.reloginDelay = reloginDelay
            self.seed = seed
        }
    }

    /// The `login` protocol version this client speaks (the 5.x SDK's).
    public static let protocolVersion = "1.2"

    enum Stage: Equatable {
        case fetchingToken, loggingIn, joined, relogging, awaitingRelogin(Instant), loggingOut, done
    }

    /// A request waiting for its ack.
    enum Pending: Equatable {
        case login, relogin, refreshTicket, logout
        case publish(OWTRequestTag, offer: String), subscribe(OWTRequestTag, offer: String)
        case soac, unpublish, unsubscribe, text

        /// The requests whose acks `.acknowledged` times.
        var isTimed: Bool {
            switch self {
            case .login, .relogin, .publish, .subscribe: true
            default: false
            }
        }

        var name: String {
            switch self {
            case .login: "login"
            case .relogin: "relogin"
            case .refreshTicket: "refreshReconnectionTicket"
            case .logout: "logout"
            case .publish: "publish"
            case .subscribe: "subscribe"
            case .soac: "soac"
            case .unpublish: "unpublish"
            case .unsubscribe: "unsubscribe"
            case .text: "text"
            }
        }
    }

    public let configuration: Configuration
    public private(set) var token: OWTToken?
    public internal(set) var room: OWTRoomInfo?
    /// The current reconnection ticket (login's, then each refresh's and relogin's).
    public internal(set) var reconnectionTicket: String?
    var stage: Stage
    private var rest: (id: StreamID, connection: HTTPClientConnection, request: HTTPRequest)?
    var portal: (id: StreamID, socket: WebSocketClient)?
    /// By ack id; a request's clock starts when its connection is up (nil until then).
    var pending: [Int: (request: Pending, sentAt: Instant?)] = [:]
    /// Requests made before `login` was answered, sent once it is.
    var waiting: [(name: String, args: [JSONValue], request: Pending)] = []
    var refreshAt: Instant?
    private var reloginsLeft: Int
    private var nextStreamID: StreamID = 1
    var nextTag: OWTRequestTag = 1
    var outputs = FIFO<StreamOutput>()
    var events = FIFO<OWTPortalEvent>()

    /// Starts at once: the first output connects to the REST server or the portal.
    public init(configuration: Configuration) {
        self.configuration = configuration
        reloginsLeft = configuration.reloginAttempts
        switch configuration.credentials {
        case .token(let text):
            stage = .loggingIn
            do {
                let token = try OWTToken(text: text)
                self.token = token
                openPortal(now: .zero)
            } catch {
                fail("OWT portal: bad token: \(error.message)")
            }
        case .rest(let request):
            stage = .fetchingToken
            let connection = HTTPClientConnection(responseTimeout: configuration.requestTimeout)
            rest = (takeStreamID(), connection, request.request)
            outputs.append(.connect(rest!.id, StreamDestination(host: request.server.host, port: request.server.port,
                                                                secure: request.server.scheme.isSecure)))
        }
    }

    public var isJoined: Bool { stage == .joined }

    // MARK: StreamMachine

    public mutating func handle(_ input: StreamInput, now: Instant) {
        switch input {
        case .connected(let id):
            if id == rest?.id {
                rest!.connection.send(rest!.request, now: now)
                flushRest()
            } else if id == portal?.id {
                for (ackID, entry) in pending where entry.sentAt == nil { pending[ackID]!.sentAt = now }
                flushPortal()
            }
        case .data(let id, let bytes):
            if id == rest?.id {
                rest!.connection.handle(bytes, now: now)
                processRest(now: now)
            } else if id == portal?.id {
                portal!.socket.handle(bytes, now: now)
                processPortal(now: now)
            }
        case .closed(let id):
            if id == rest?.id {
                rest!.connection.handleEOF()
                processRest(now: now)
            } else if id == portal?.id {
                portal!.socket.handleEOF(now: now)
                processPortal(now: now)
            }
        case .failed(let id, let reason):
            if id == rest?.id {
                rest = nil
                fail("OWT REST: \(reason)")
            } else if id == portal?.id {
                portal = nil
                lostPortal(reason, now: now)
            }
        case .accepted, .backlog, .refusedAtDescriptorLimit:
            break
        }
    }

    public mutating func handleTimeout(now: Instant) {
        if rest != nil {
            rest!.connection.handleTimeout(now: now)
            processRest(now: now)
        }
        if portal != nil {
            portal!.socket.handleTimeout(now: now)
            processPortal(now: now)
        }
        if let (_, late) = pending.first(where: { $0.value.sentAt.map { now >= $0 + configuration.requestTimeout } ?? false }) {
            return fail("OWT portal: no answer to \(late.request.name) within \(configuration.requestTimeout)")
        }
        if case .awaitingRelogin(let due) = stage, now >= due {
            stage = .relogging
            openPortal(now: now)
        }
        if let due = refreshAt, now >= due, stage == .joined {
            refreshAt = nil
            send("refreshReconnectionTicket", [], as: .refreshTicket, now: now)
        }
    }

    public func pollTimeout() -> Instant? {
        var times = [rest?.connection.pollTimeout(), portal?.socket.pollTimeout(), refreshAt]
        times += pending.values.map { $0.sentAt.map { $0 + configuration.requestTimeout } }
        if case .awaitingRelogin(let due) = stage { times.append(due) }
        return times.compactMap { $0 }.min()
    }

    public mutating func pollTransmit() -> StreamOutput? { outputs.popFirst() }

    public mutating func pollEvent() -> OWTPortalEvent? { events.popFirst() }

    // MARK: Connections

    private mutating func takeStreamID() -> StreamID {
        defer { nextStreamID += 1 }
        return nextStreamID
    }

    /// Opens the portal connection and queues `login` (or `relogin`) as its first emit.
    private mutating func openPortal(now: Instant) {
        guard let token else { return }
        let server: Endpoint
        do {
            server = try configuration.portal ?? token.portal()
        } catch {
            return fail("OWT portal: token host \(token.host): \(error)")
        }
        let id = takeStreamID()
        let session = SocketIOClientSession(engineIO: configuration.engineIO)
        portal = (id, WebSocketClient.socketIO(server: server, session: session, seed: configuration.seed &+ UInt64(id)))
        outputs.append(.connect(id, StreamDestination(host: server.host, port: server.port, secure: server.scheme.isSecure)))
        if stage == .relogging, let reconnectionTicket {
            send("relogin", [.string(reconnectionTicket)], as: .relogin, now: now, whenJoined: false)
        } else {
            let login: JSONValue = .object(["token": .string(token.text), "userAgent": configuration.userAgent,
                                            "protocol": .string(OWTPortalClient.protocolVersion)])
            send("login", [login], as: .login, now: now, whenJoined: false)
        }
    }

    private mutating func flushRest() {
        guard let id = rest?.id else { return }
        while let bytes = rest!.connection.pollTransmit() { outputs.append(.write(id, bytes)) }
    }

    mutating func flushPortal() {
        guard let id = portal?.id else { return }
        while let bytes = portal!.socket.pollTransmit() { outputs.append(.write(id, bytes)) }
    }

    private mutating func processRest(now: Instant) {
        flushRest()
        guard let event = rest?.connection.pollEvent(), let id = rest?.id else { return }
        rest = nil
        outputs.append(.close(id))
        switch event {
        case .failed(let error):
            fail("OWT REST: \(error)")
        case .response(let response, _):
            do {
                token = try OWTRestToken.token(from: response)
                stage = .loggingIn
                openPortal(now: now)
            } catch {
                fail(error.message)
            }
        }
    }

    private mutating func processPortal(now: Instant) {
        while let event = portal?.socket.pollEvent() {
            switch event {
            case .opened, .text:
                break
            case .ack(let message):
                receiveAck(message, now: now)
            case .event(let message):
                receiveNotification(message, now: now)
            case .closed(let reason):
                flushPortal()
                if let id = portal?.id { outputs.append(.close(id)) }
                portal = nil
                lostPortal(reason, now: now)
            }
        }
        flushPortal()
    }

    /// The portal connection is gone: done after logout, a relogin after a drop once
    /// joined (with nothing but a ticket refresh in flight), else a failure.
    private mutating func lostPortal(_ reason: String, now: Instant) {
        if stage == .loggingOut {
            stage = .done
            return events.append(.loggedOut)
        }
        pending = pending.filter { $0.value.request != .refreshTicket }
        let canRelogin = (stage == .joined || stage == .relogging) && reconnectionTicket != nil && pending.isEmpty
        guard canRelogin, reloginsLeft > 0 else {
            return fail("OWT portal: connection lost (\(reason))")
        }
        reloginsLeft -= 1
        pending = [:]
        refreshAt = nil
        stage = .awaitingRelogin(now + configuration.reloginDelay)
        events.append(.reconnecting(reason: reason))
    }

    /// Ends the client with `reason` (once), closing what is open.
    mutating func fail(_ reason: String) {
        guard stage != .done else { return }
        stage = .done
        pending = [:]
        waiting = []
        refreshAt = nil
        if let id = rest?.id { outputs.append(.abort(id)) }
        if let id = portal?.id { outputs.append(.close(id)) }
        rest = nil
        portal = nil
        events.append(.failed(reason))
    }
}
