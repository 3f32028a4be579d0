/// One room's messages (or, as `total`, every room's): what its members sent, what the
/// server relayed (the built-in server's own count of copies it delivered; nil for other
/// servers), and what the members received, lost and got twice (`RoomMessageCounts`).
/// A message to a room of n members is relayed n - 1 times, so `received` is compared with
/// `relayed`, not with `sent`.
public struct RoomMessageSummary: Codable, Equatable, Sendable {
    /// The room's name; `total` in the sum over rooms.
    public var room: String
    public var members: Int
    public var sent: Int
    public var relayed: Int?
    public var received: Int
    public var lost: Int
    public var duplicated: Int

    public init(room: String, members: Int = 0, sent: Int = 0, relayed: Int? = nil, received: Int = 0, lost: Int = 0, duplicated: Int = 0) {
        self.room = room
        self.members = members
        self.sent = sent
        self.relayed = relayed
        self.received = received
        self.lost = lost
        self.duplicated = duplicated
    }

    /// Each room of `peers` (members with message counts), by name, with the server's
    /// relayed count for it when `relayedByRoom` is known.
    public static func rooms(of peers: [PeerRecord], relayedByRoom: [String: Int]?) -> [RoomMessageSummary] {
        var byRoom: [String: RoomMessageSummary] = [:]
        for case let counts? in peers.map(\.messages) {
            var room = byRoom[counts.room] ?? RoomMessageSummary(room: counts.room, relayed: relayedByRoom.map { $0[counts.room] ?? 0 })
            room.members += 1
            room.sent += counts.sent
            room.received += counts.received
            room.lost += counts.lost
            room.duplicated += counts.duplicated
            byRoom[counts.room] = room
        }
        return byRoom.values.sorted { $0.room < $1.room }
    }

    /// The sum over `rooms`; `relayed` only when every room has it.
    public static func total(of rooms: [RoomMessageSummary]) -> RoomMessageSummary {
        var total = RoomMessageSummary(room: "total", relayed: rooms.allSatisfy { $0.relayed != nil } ? 0 : nil)
        for room in rooms {
            total.members += room.members
            total.sent += room.sent
            total.received += room.received
            total.lost += room.lost
            total.duplicated += room.duplicated
            if let relayed = room.relayed { total.relayed? += relayed }
        }
        return total
    }

    /// The rooms a report shows first: most lost, then most duplicated, then by name.
    public static func worstFirst(_ rooms: [RoomMessageSummary]) -> [RoomMessageSummary] {
        rooms.sorted { ($1.lost, $1.duplicated, $0.room) < ($0.lost, $0.duplicated, $1.room) }
    }
}
