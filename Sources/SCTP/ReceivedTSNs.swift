/// The TSNs a receiver has seen (RFC 9260 6.2): the cumulative TSN ack point, the TSNs
/// above it that arrived out of order, and duplicates since the last SACK, from which it
/// builds its SACK. TSNs more than 65535 above the ack point cannot be reported in a gap
/// block, so they are refused.
struct ReceivedTSNs: Sendable {
    private(set) var cumulative: UInt32
    private var above: Set<UInt32> = []
    private var duplicates: [UInt32] = []

    /// `initialTSN` is the peer's first TSN (from its INIT or INIT ACK).
    init(initialTSN: UInt32) { cumulative = initialTSN &- 1 }

    var hasGaps: Bool { !above.isEmpty }
    var hasDuplicates: Bool { !duplicates.isEmpty }
    var outOfOrderCount: Int { above.count }

    enum Arrival { case new, duplicate, tooFarAhead }

    mutating func insert(_ tsn: UInt32) -> Arrival {
        if tsn.tsnPrecedesOrEquals(cumulative) || above.contains(tsn) {
            if duplicates.count < 32 { duplicates.append(tsn) }
            return .duplicate
        }
        guard tsn &- cumulative <= 0xFFFF else { return .tooFarAhead }
        above.insert(tsn)
        advance()
        return .new
    }

    /// FORWARD TSN (RFC 3758 3.6): everything up to `tsn` counts as received.
    mutating func forward(to tsn: UInt32) {
        guard cumulative.tsnPrecedes(tsn) else { return }
        above = above.filter { tsn.tsnPrecedes($0) }
        cumulative = tsn
        advance()
    }

    private mutating func advance() {
        while above.remove(cumulative &+ 1) != nil { cumulative &+= 1 }
    }

    /// A SACK for what has arrived (RFC 9260 3.3.4), resetting the duplicate list.
    mutating func sack(window: UInt32) -> SackChunk {
        var gaps: [(start: UInt16, end: UInt16)] = []
        for offset in above.map({ UInt16($0 &- cumulative) }).sorted() {
            if let last = gaps.last, last.end &+ 1 == offset {
                gaps[gaps.count - 1].end = offset
            } else {
                gaps.append((offset, offset))
            }
        }
        defer { duplicates.removeAll() }
        return SackChunk(cumulativeTSN: cumulative, advertisedWindow: window, gaps: Array(gaps.prefix(200)), duplicates: duplicates)
    }
}
