/// The TSNs a receiver has seen (RFC 9260 6.2): the cumulative TSN ack point, the TSNs
/// above it that arrived out of order (kept sorted, so a SACK's gap blocks are one pass),
/// and duplicates since the last SACK. TSNs more than 65535 above the ack point cannot be
/// reported in a gap block, so they are refused.
struct ReceivedTSNs: Sendable {
    private(set) var cumulative: UInt32
    /// Offsets above `cumulative`, ascending.
    private var above: [UInt32] = []
    private var duplicates: [UInt32] = []

    /// `initialTSN` is the peer's first TSN (from its INIT or INIT ACK).
    init(initialTSN: UInt32) { cumulative = initialTSN &- 1 }

    var hasGaps: Bool { !above.isEmpty }
    var hasDuplicates: Bool { !duplicates.isEmpty }

    enum Arrival { case new, duplicate, tooFarAhead }

    mutating func insert(_ tsn: UInt32) -> Arrival {
        let offset = tsn &- cumulative
        if offset == 0 || offset >= 0x8000_0000 {
            return duplicate(tsn)
        }
        guard offset <= 0xFFFF else { return .tooFarAhead }
        if above.last.map({ $0 < offset }) ?? true {
            above.append(offset)
        } else {
            let position = insertionPoint(offset)
            if position < above.count, above[position] == offset { return duplicate(tsn) }
            above.insert(offset, at: position)
        }
        advance()
        return .new
    }

    private mutating func duplicate(_ tsn: UInt32) -> Arrival {
        if duplicates.count < 32 { duplicates.append(tsn) }
        return .duplicate
    }

    private func insertionPoint(_ offset: UInt32) -> Int {
        var low = 0
        var high = above.count
        while low < high {
            let middle = (low + high) / 2
            if above[middle] < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// FORWARD TSN (RFC 3758 3.6): everything up to `tsn` counts as received.
    mutating func forward(to tsn: UInt32) {
        let shift = tsn &- cumulative
        guard shift > 0, shift < 0x8000_0000 else { return }
        let kept = above[insertionPoint(shift + 1)...].map { $0 - shift }
        above = Array(kept)
        cumulative = tsn
        advance()
    }

    /// Moves the ack point over TSNs that now follow it without a gap.
    private mutating func advance() {
        var run = 0
        while run < above.count, above[run] == UInt32(run + 1) { run += 1 }
        guard run > 0 else { return }
        above.removeFirst(run)
        for index in above.indices { above[index] -= UInt32(run) }
        cumulative &+= UInt32(run)
    }

    /// A SACK for what has arrived (RFC 9260 3.3.4, at most 200 gap blocks), resetting the
    /// duplicate list.
    mutating func sack(window: UInt32) -> SackChunk {
        var gaps: [(start: UInt16, end: UInt16)] = []
        for offset in above where gaps.count <= 200 {
            if let last = gaps.last, UInt32(last.end) + 1 == offset {
                gaps[gaps.count - 1].end = UInt16(offset)
            } else {
                gaps.append((UInt16(offset), UInt16(offset)))
            }
        }
        defer { duplicates.removeAll() }
        return SackChunk(cumulativeTSN: cumulative, advertisedWindow: window, gaps: Array(gaps.prefix(200)), duplicates: duplicates)
    }
}
