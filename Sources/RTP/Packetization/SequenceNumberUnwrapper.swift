/// Extends 16-bit RTP sequence numbers to 64 bits across wrap-around (RFC 3550 A.1's
/// idea without its probation rules): each number is placed within +-32768 of the
/// highest one seen so far, so reordered and duplicated packets unwrap correctly.
public struct SequenceNumberUnwrapper: Sendable {
    private var highest: Int64?

    public init() {}

    /// The extended value of `sequenceNumber` (the first one seen keeps its value).
    public mutating func unwrap(_ sequenceNumber: UInt16) -> Int64 {
        guard let highest else {
            highest = Int64(sequenceNumber)
            return Int64(sequenceNumber)
        }
        let delta = Int16(bitPattern: sequenceNumber &- UInt16(truncatingIfNeeded: highest))
        let extended = highest + Int64(delta)
        if extended > highest { self.highest = extended }
        return extended
    }
}
