/// Sequence number extension and source validation of RFC 3550 A.1.
///
/// A source is valid after `probation` packets in sequence. Within `maxDropout` ahead
/// a packet advances the highest sequence number (counting a cycle at wrap); within
/// `maxMisorder` behind it is a late or duplicate packet; anything else is a jump that
/// restarts the sequence when the next packet follows it (the source restarted).
/// Differences from the appendix: the probation packets count once the source is valid
/// (the appendix drops them from the statistics), and `maxMisorder` defaults to 1000,
/// not 100, since NACK resends of large keyframes arrive hundreds of packets late.
struct SequenceTracker: Sendable {
    enum Outcome: Equatable {
        /// Counted, with its extended sequence number (cycles in the high bits).
        case accepted(Int64)
        /// Still in probation: counted once the source is valid.
        case inProbation
        /// A jump waiting for confirmation: not counted.
        case notValidated
        /// The source became valid (after probation, or after a confirmed jump): the
        /// packets `first...last` (extended) were received and statistics start again.
        case restarted(first: Int64, last: Int64)
    }

    let maxDropout: UInt16
    let maxMisorder: UInt16
    let probation: Int

    private(set) var maxSequence: UInt16 = 0
    private(set) var cycles: Int64 = 0
    private var badSequence: Int = 0x1_0001
    private var probationLeft: Int
    private var started = false

    init(probation: Int, maxDropout: UInt16 = 3000, maxMisorder: UInt16 = 1000) {
        self.probation = max(1, probation)
        self.maxDropout = maxDropout
        self.maxMisorder = maxMisorder
        self.probationLeft = max(1, probation)
    }

    /// The extended highest sequence number.
    var extendedMax: Int64 { cycles + Int64(maxSequence) }

    mutating func update(_ sequence: UInt16) -> Outcome {
        if !started {
            started = true
            maxSequence = sequence &- 1
            probationLeft = probation
        }
        let delta = sequence &- maxSequence
        if probationLeft > 0 {
            if sequence == maxSequence &+ 1 {
                probationLeft -= 1
                maxSequence = sequence
                if probationLeft == 0 {
                    cycles = 0
                    badSequence = 0x1_0001
                    return .restarted(first: Int64(sequence) - Int64(probation - 1), last: Int64(sequence))
                }
            } else {
                probationLeft = probation - 1
                maxSequence = sequence
            }
            return .inProbation
        }
        if delta < maxDropout {
            if sequence < maxSequence { cycles += 0x1_0000 }
            maxSequence = sequence
            return .accepted(extendedMax)
        }
        if delta <= UInt16.max - maxMisorder {
            // A very large jump: restart only when the next packet confirms it.
            if Int(sequence) == badSequence {
                cycles = 0
                maxSequence = sequence
                badSequence = 0x1_0001
                return .restarted(first: Int64(sequence) - 1, last: Int64(sequence))
            }
            badSequence = Int(sequence &+ 1)
            return .notValidated
        }
        // Late or duplicate: behind the highest by 65536 - delta.
        return .accepted(extendedMax - Int64(0x1_0000 - Int(delta)))
    }
}
