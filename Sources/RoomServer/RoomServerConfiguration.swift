import Net
import Signaling

/// Limits and names of the built-in room server. Every limit refuses with a clear error
/// to the one client that hit it; the others keep being served.
public struct RoomServerConfiguration: Sendable {
    /// Members per room (the seed protocol's rooms hold two).
    public var capacity: Int = 2
    public var maxConnections: Int = 20_000
    public var maxRooms: Int = 10_000
    /// Largest WebSocket message accepted; a larger one closes that connection (1009).
    public var maxMessageBytes: Int = 64 * 1024
    /// Sustained messages per second per connection, with bursts up to twice that.
    public var maxMessagesPerSecond: Double = 100
    /// Sustained messages per second from one client address over all its connections,
    /// with bursts up to twice that, so reconnecting does not reset the allowance; nil
    /// for no such limit (the embedded server of a run, whose peers all share 127.0.0.1).
    public var maxMessagesPerSecondPerAddress: Double?
    /// A connection over its rate (or its address's) this many times in a row is closed (1008).
    public var maxRateViolations: Int = 20
    /// Bytes the driver may hold unsent for one connection (the client is not reading);
    /// beyond it the connection is dropped with what is unsent (`slow_reader`).
    public var maxQueuedBytes: Int = 1 << 20
    /// Writes (messages, HTTP responses) the driver may hold unsent for one connection.
    public var maxQueuedMessages: Int = 1_000
    /// A connection that has sent no complete HTTP request this long after connecting (or
    /// after its last response) is closed (`http_timeout`): bare connects do not pile up.
    public var handshakeTimeout: Duration = .seconds(5)
    public var events = RoomEventNames()
    public var socketIO = SocketIOServerSession.Configuration()

    public init() {}
}

/// What the server has done so far (served as JSON at `/stats`).
public struct RoomServerStats: Codable, Equatable, Sendable {
    public var connections = 0
    public var peakConnections = 0
    public var acceptedConnections = 0
    public var rooms = 0
    public var members = 0
    public var joins = 0
    public var fulls = 0
    public var leaves = 0
    public var byesOnDisconnect = 0
    public var messagesRelayed = 0
    /// `messagesRelayed` by room name: the copies delivered to each room's members.
    public var messagesRelayedByRoom: [String: Int] = [:]
    /// Refusals by code: `not_member`, `rate_limited`, `address_rate_limited`,
    /// `too_many_rooms`, `bad_request`, `too_many_connections`, `message_too_large`,
    /// `slow_reader` (dropped: too much unsent), `http_timeout` (no request in time),
    /// `descriptor_limit` (refused at the process's file-descriptor limit), ...
    public var rejects: [String: Int] = [:]

    public init() {}

    mutating func reject(_ code: String) { rejects[code, default: 0] += 1 }
}
