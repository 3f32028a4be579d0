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
    /// A connection over its rate this many times in a row is closed (1008).
    public var maxRateViolations: Int = 20
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
    /// Refusals by code: `not_member`, `rate_limited`, `too_many_rooms`, `bad_request`,
    /// `too_many_connections`, `message_too_large`, ...
    public var rejects: [String: Int] = [:]

    public init() {}

    mutating func reject(_ code: String) { rejects[code, default: 0] += 1 }
}
