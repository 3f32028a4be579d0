/// A receiver's running count of the sequence numbers it got from each sender in its room,
/// from which `RoomMessageCounts` reads lost and duplicated messages.
public struct RoomMessageTally: Sendable {
    private var numbersBySender: [String: Set<Int>] = [:]
    public private(set) var received = 0
    public private(set) var duplicated = 0

    public init() {}

    /// One message arrived from `sender` with sequence number `sequence`.
    public mutating func receive(from sender: String, sequence: Int) {
        received += 1
        if numbersBySender[sender, default: []].insert(sequence).inserted == false { duplicated += 1 }
    }

    /// Numbers missing between each sender's first and last arrival here.
    public var lost: Int {
        numbersBySender.values.reduce(0) { total, numbers in
            guard let first = numbers.min(), let last = numbers.max() else { return total }
            return total + (last - first + 1 - numbers.count)
        }
    }

    /// The member's record of the room's messages, with `sent` of its own.
    public func counts(room: String, sent: Int) -> RoomMessageCounts {
        RoomMessageCounts(room: room, sent: sent, received: received, lost: lost, duplicated: duplicated)
    }
}
