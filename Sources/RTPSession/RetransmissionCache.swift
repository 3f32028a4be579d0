import RTCBase

/// The last `capacity` packets sent on a stream, to answer NACKs (RFC 4585 6.2.1).
///
/// A ring indexed by sequence number. Entries keep the header fields and a reference to
/// the payload array, which is shared with every other publisher of the same encoded
/// frame, so a cache costs a few dozen bytes per packet, not a copy of it.
struct RetransmissionCache: Sendable {
    struct Entry: Sendable {
        var sequenceNumber: UInt16
        var timestamp: UInt32
        var marker: Bool
        var payload: [UInt8]
        var lastResent: Instant?
    }

    private var entries: [Entry?]

    init(capacity: Int) { entries = Array(repeating: nil, count: max(1, min(capacity, 0x1_0000))) }

    mutating func store(_ entry: Entry) {
        entries[Int(entry.sequenceNumber) % entries.count] = entry
    }

    /// The packet sent with `sequenceNumber`, if still held.
    func entry(_ sequenceNumber: UInt16) -> Entry? {
        guard let entry = entries[Int(sequenceNumber) % entries.count], entry.sequenceNumber == sequenceNumber
        else { return nil }
        return entry
    }

    mutating func markResent(_ sequenceNumber: UInt16, at now: Instant) {
        entries[Int(sequenceNumber) % entries.count]?.lastResent = now
    }
}
