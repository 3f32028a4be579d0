import RTCBase

/// Packets waiting for their delivery time: a binary min-heap on (time, arrival order),
/// so equal times come out in the order they went in.
///
/// Without reordering, delivery times never decrease, so an insert stops at once and a
/// removal costs `log n` swaps; the storage is reused, so the steady state allocates
/// nothing.
struct DeliveryHeap<Packet> {
    struct Entry {
        var deliverAt: Instant
        var order: UInt64
        var packet: Packet

        func precedes(_ other: Entry) -> Bool {
            deliverAt != other.deliverAt ? deliverAt < other.deliverAt : order < other.order
        }
    }

    private var entries: [Entry] = []

    init() {}

    var count: Int { entries.count }
    var first: Entry? { entries.first }

    mutating func insert(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() -> Entry? {
        guard !entries.isEmpty else { return nil }
        entries.swapAt(0, entries.count - 1)
        let first = entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count, entries[left].precedes(entries[smallest]) { smallest = left }
            if right < entries.count, entries[right].precedes(entries[smallest]) { smallest = right }
            if smallest == parent { break }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}

extension DeliveryHeap: Sendable where Packet: Sendable {}
extension DeliveryHeap.Entry: Sendable where Packet: Sendable {}
