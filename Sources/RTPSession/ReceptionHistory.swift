/// Which of the recent packets of a stream arrived, and loss bursts as the network made
/// them (METRICS.md: a packet counts as lost when it never arrived or arrived only after
/// being NACKed).
///
/// Two bitmaps over a window of the last `window` extended sequence numbers: "arrived"
/// (to detect duplicates) and "arrived before being NACKed". When a sequence number
/// leaves the window its fate is final and feeds the burst statistics.
struct ReceptionHistory: Sendable {
    /// Runs of network-lost packets: the longest and the number of runs.
    struct Bursts: Equatable, Sendable {
        var current = 0
        var longest = 0
        var episodes = 0

        mutating func record(lost: Bool) {
            if lost {
                if current == 0 { episodes += 1 }
                current += 1
                longest = max(longest, current)
            } else {
                current = 0
            }
        }
    }

    static let window: Int64 = 2048
    private var arrived = [UInt64](repeating: 0, count: Int(window / 64))
    private var onTime = [UInt64](repeating: 0, count: Int(window / 64))
    /// Sequence numbers below this are final.
    private var finalizedEnd: Int64
    private(set) var bursts = Bursts()

    /// A history whose first sequence number is `first`.
    init(first: Int64) { finalizedEnd = first }

    private static func position(_ sequence: Int64) -> (word: Int, bit: UInt64) {
        let index = Int(sequence & (window - 1))
        return (index >> 6, 1 << UInt64(index & 63))
    }

    /// True when `sequence` is older than the window (its fate is already final).
    func isTooOld(_ sequence: Int64) -> Bool { sequence < finalizedEnd }

    func hasArrived(_ sequence: Int64) -> Bool {
        let (word, bit) = Self.position(sequence)
        return !isTooOld(sequence) && arrived[word] & bit != 0
    }

    /// Records an arrival; `onTime` is false for packets that were NACKed first.
    mutating func record(_ sequence: Int64, onTime arrivedOnTime: Bool) {
        let (word, bit) = Self.position(sequence)
        arrived[word] |= bit
        if arrivedOnTime { onTime[word] |= bit }
    }

    /// Moves the window so that it ends at `highest`, finalizing what falls out.
    mutating func advance(to highest: Int64) {
        while finalizedEnd <= highest - Self.window {
            let (word, bit) = Self.position(finalizedEnd)
            bursts.record(lost: onTime[word] & bit == 0)
            arrived[word] &= ~bit
            onTime[word] &= ~bit
            finalizedEnd += 1
        }
    }

    /// Burst statistics as if every packet up to `highest` were final now (packets
    /// still missing count as lost).
    func burstsIncludingPending(upTo highest: Int64) -> Bursts {
        var result = bursts
        var sequence = finalizedEnd
        while sequence <= highest {
            let (word, bit) = Self.position(sequence)
            result.record(lost: onTime[word] & bit == 0)
            sequence += 1
        }
        return result
    }
}
