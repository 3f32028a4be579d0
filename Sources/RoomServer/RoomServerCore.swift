import Net
import RTCBase
import Signaling

/// The built-in room server as a sans-IO state machine: bytes in per connection, bytes
/// out per connection, no sockets. It speaks the room protocol of PROTOCOLS.md section 3
/// over Socket.IO (`/socket.io/?EIO=4&transport=websocket`) and over plain JSON frames
/// (`/ws`), serves its figures at `/stats` and a browser call page at `/peer`, and fixes
/// the public server's flaws: rooms have a capacity, only members may send `message` or
/// `leave`, a dropped connection says `bye` to the rest of its rooms, and every limit
/// answers with an `error` naming it.
public struct RoomServerCore {
    public let configuration: RoomServerConfiguration
    public internal(set) var stats = RoomServerStats()
    var registry: RoomRegistry
    var connections: [Int: RoomServerConnection] = [:]
    var members: [String: Int] = [:]
    /// The per-address rate limit's buckets; a full one is forgotten at the next sweep.
    var addressBuckets: [String: TokenBucket] = [:]
    /// Writes and closes for the host (`.abort` drops what is unsent: a client that does not read).
    var outputs = FIFO<StreamOutput>()
    var generator: SeededGenerator
    private var nextSweep: Instant?
    private var shuttingDown = false
    /// How often connection timers (heartbeats, HTTP timeouts) are looked at.
    static let sweepInterval = Duration.milliseconds(250)

    public init(configuration: RoomServerConfiguration = RoomServerConfiguration(), seed: UInt64 = 1) {
        self.configuration = configuration
        registry = RoomRegistry(capacity: configuration.capacity, maxRooms: configuration.maxRooms)
        generator = SeededGenerator(seed: seed)
    }

    public var connectionCount: Int { connections.count }
    public var roomCount: Int { registry.roomCount }
    public var memberCount: Int { registry.memberCount }

    // MARK: Input from the driver

    /// A new TCP connection from `address` (the client's IP, the key of the per-address
    /// rate limit). Over the connection limit it is answered 503 and closed.
    public mutating func accept(_ id: Int, from address: String = "", now: Instant) {
        if shuttingDown || connections.count >= configuration.maxConnections {
            stats.reject("too_many_connections")
            let response = HTTPResponse(status: 503, headers: ["Content-Type": "text/plain", "Connection": "close"],
                                        body: Array("room server is at its connection limit (\(configuration.maxConnections))\n".utf8))
            outputs.append(.write(id, response.serialized()))
            outputs.append(.close(id))
            return
        }
        connections[id] = RoomServerConnection(id: id, address: address, now: now, rate: configuration.maxMessagesPerSecond,
                                               handshakeTimeout: configuration.handshakeTimeout)
        stats.acceptedConnections += 1
        stats.connections = connections.count
        stats.peakConnections = max(stats.peakConnections, connections.count)
        if nextSweep == nil { nextSweep = now + Self.sweepInterval }
    }

    public mutating func receive(_ id: Int, _ bytes: [UInt8], now: Instant) {
        guard let connection = connections[id], !connection.closed else { return }
        if connection.webSocket != nil {
            connection.webSocket?.handle(bytes, now: now)
        } else {
            connection.http.handle(bytes, now: now)
            serveHTTP(connection, now: now)
        }
        pump(connection, now: now)
    }

    /// The peer closed its side, or the socket failed.
    public mutating func closed(_ id: Int, now: Instant) {
        guard let connection = connections[id] else { return }
        connection.webSocket?.handleEOF()
        connection.http.handleEOF()
        pump(connection, now: now)
        finish(connection, now: now)
    }

    /// What the driver holds unsent for a connection because the client is not reading.
    /// Over `maxQueuedBytes` or `maxQueuedMessages` the connection is dropped at once with
    /// what is unsent (counted as `slow_reader`), so one client cannot make the server
    /// hold its memory, and its rooms hear `bye`.
    public mutating func unsent(_ id: Int, bytes: Int, messages: Int, now: Instant) {
        guard bytes > configuration.maxQueuedBytes || messages > configuration.maxQueuedMessages,
              let connection = connections[id], !connection.closed else { return }
        stats.reject("slow_reader")
        finish(connection, now: now, droppingUnsent: true)
    }

    /// The driver turned a connection away before it reached the core: the process is
    /// at its file-descriptor limit (`descriptor_limit` in `/stats`).
    public mutating func refusedAtDescriptorLimit() {
        stats.reject("descriptor_limit")
    }

    public func pollTimeout() -> Instant? { nextSweep }

    public mutating func handleTimeout(now: Instant) {
        guard let sweep = nextSweep, now >= sweep else { return }
        for connection in connections.values {
            guard let deadline = connection.deadline, deadline <= now else { continue }
            connection.http.handleTimeout(now: now)
            if connection.webSocket == nil { serveHTTP(connection, now: now) }
            connection.webSocket?.handleTimeout(now: now)
            connection.session?.handleTimeout(now: now)
            pump(connection, now: now)
        }
        addressBuckets = addressBuckets.filter { !$0.value.isFull(now: now) }
        nextSweep = connections.isEmpty ? nil : now + Self.sweepInterval
    }

    public mutating func pollTransmit() -> StreamOutput? { outputs.popFirst() }

    /// Graceful shutdown: every WebSocket gets Close 1001, new connections are refused.
    public mutating func shutdown(now: Instant) {
        shuttingDown = true
        for connection in connections.values {
            if connection.session != nil {
                connection.session?.close("server shutting down", code: 1001)
            } else if connection.webSocket != nil {
                connection.webSocket?.close(code: 1001, reason: "server shutting down", now: now)
            } else {
                outputs.append(.close(connection.id))
                connection.closed = true
            }
            pump(connection, now: now)
        }
    }

    // MARK: HTTP

    private mutating func serveHTTP(_ connection: RoomServerConnection, now: Instant) {
        while let event = connection.http.pollEvent() {
            if case .timedOut = event { stats.reject("http_timeout") }
            guard case .request(let request) = event else { continue }
            let path = String(request.target.prefix { $0 != "?" })
            switch path {
            case "/socket.io/", "/socket.io":
                let response = SocketIOServerSession.upgradeResponse(to: request, path: path)
                connection.http.respond(response, now: now)
                if response.status == 101 {
                    connection.session = SocketIOServerSession(configuration: configuration.socketIO, seed: generator.next(), now: now)
                    connection.webSocket = WebSocketConnection(role: .server, maxMessageSize: configuration.maxMessageBytes)
                    connection.transport = .socketIO
                    startWebSocket(connection, now: now)
                    return
                }
                stats.reject("bad_request")
            case "/ws":
                let (response, _) = WebSocketHandshake.serverResponse(to: request)
                connection.http.respond(response, now: now)
                if response.status == 101 {
                    connection.webSocket = WebSocketConnection(role: .server, maxMessageSize: configuration.maxMessageBytes)
                    connection.transport = .plain
                    let id = makeMemberID()
                    connection.memberID = id
                    members[id] = connection.id
                    startWebSocket(connection, now: now)
                    return
                }
                stats.reject("bad_request")
            case "/peer":
                connection.http.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8",
                                                                            "Cache-Control": "no-store"],
                                                     body: Array(BrowserPeerPage.html.utf8)), now: now)
            case "/stats":
                connection.http.respond(HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                                     body: Array(statsJSON().serialized.utf8)), now: now)
            default:
                connection.http.respond(HTTPResponse(status: 404, headers: ["Content-Type": "text/plain"],
                                                     body: Array("not found: try /socket.io/, /ws, /peer or /stats\n".utf8)), now: now)
            }
        }
    }

    private func startWebSocket(_ connection: RoomServerConnection, now: Instant) {
        let early = connection.http.takeUpgradedBytes()
        if !early.isEmpty { connection.webSocket?.handle(early, now: now) }
    }

    private mutating func makeMemberID() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<20).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }

    func statsJSON() -> JSONValue {
        var current = stats
        current.rooms = registry.roomCount
        current.members = registry.memberCount
        return .object([
            "connections": .integer(Int64(current.connections)), "peak_connections": .integer(Int64(current.peakConnections)),
            "accepted_connections": .integer(Int64(current.acceptedConnections)), "rooms": .integer(Int64(current.rooms)),
            "members": .integer(Int64(current.members)), "joins": .integer(Int64(current.joins)),
            "fulls": .integer(Int64(current.fulls)), "leaves": .integer(Int64(current.leaves)),
            "byes_on_disconnect": .integer(Int64(current.byesOnDisconnect)),
            "messages_relayed": .integer(Int64(current.messagesRelayed)),
            "rejects": .object(current.rejects.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, .integer(Int64($0.value))) }),
        ])
    }
}
