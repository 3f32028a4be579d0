/// Who is in which room, with the rules the widely copied public room server lacks
/// (PROTOCOLS.md section 3): a capacity per room, a limit on the number of rooms, and
/// membership that can be checked before a `message` or `leave` is honoured.
///
/// Members are kept in join order, so the first one in a room is the one who calls.
public struct RoomRegistry: Sendable {
    public enum JoinOutcome: Equatable, Sendable {
        /// In the room now; `others` were there before and hear about it.
        case joined(others: [String])
        /// The room already holds `capacity` members; the joiner is not in it.
        case full
        /// Already a member: nothing changes.
        case alreadyMember
        /// Creating one more room would pass the server's limit.
        case tooManyRooms
    }

    public let capacity: Int
    public let maxRooms: Int
    public private(set) var rooms: [String: [String]] = [:]
    private var membership: [String: Set<String>] = [:]

    public init(capacity: Int, maxRooms: Int) {
        self.capacity = capacity
        self.maxRooms = maxRooms
    }

    public var roomCount: Int { rooms.count }
    public var memberCount: Int { membership.values.reduce(0) { $0 + $1.count } }

    public func members(of room: String) -> [String] { rooms[room] ?? [] }

    public func isMember(_ member: String, of room: String) -> Bool { membership[member]?.contains(room) ?? false }

    public mutating func join(_ member: String, room: String) -> JoinOutcome {
        if isMember(member, of: room) { return .alreadyMember }
        let present = rooms[room] ?? []
        if present.isEmpty && rooms.count >= maxRooms { return .tooManyRooms }
        if present.count >= capacity { return .full }
        rooms[room] = present + [member]
        membership[member, default: []].insert(room)
        return .joined(others: present)
    }

    /// Removes a member from a room; returns who stays, or nil when it was not a member.
    public mutating func leave(_ member: String, room: String) -> [String]? {
        guard isMember(member, of: room) else { return nil }
        membership[member]?.remove(room)
        if membership[member]?.isEmpty == true { membership[member] = nil }
        let remaining = (rooms[room] ?? []).filter { $0 != member }
        rooms[room] = remaining.isEmpty ? nil : remaining
        return remaining
    }

    /// Removes a member from every room (its connection dropped); returns, per room, who stays.
    public mutating func remove(_ member: String) -> [(room: String, remaining: [String])] {
        let joined = (membership[member] ?? []).sorted()
        return joined.compactMap { room in leave(member, room: room).map { (room, $0) } }
    }
}
