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
        /// Resent on the RTX stream (RFC 4588) at least once.
        var resentAsRtx = false
        /// NACKed again after an RTX resend had time to arrive (counted once).
        var renackedAfterRtx = false
    }

    /// Allocated on the first packet stored, so streams that never send cost nothing.
    private var entries: [Entry?] = []
    private let capacity: Int

    init(capacity: Int) { self.capacity = max(1, min(capacity, 0x1_0000)) }

    mutating func store(_ entry: Entry) {
        if entries.isEmpty { entries = Array(repeating: nil, count: capacity) }
        entries[Int(entry.sequenceNumber) % capacity] = entry
    }

    /// The packet sent with `sequenceNumber`, if still held.
    func entry(_ sequenceNumber: UInt16) -> Entry? {
        guard !entries.isEmpty, let entry = entries[Int(sequenceNumber) % capacity],
            entry.sequenceNumber == sequenceNumber
        else { return nil }
        return entry
    }

    mutating func markResent(_ sequenceNumber: UInt16, at now: Instant, asRtx: Bool) {
        guard !entries.isEmpty else { return }
        entries[Int(sequenceNumber) % capacity]?.lastResent = now
        if asRtx { entries[Int(sequenceNumber) % capacity]?.resentAsRtx = true }
    }

    mutating func markRenackedAfterRtx(_ sequenceNumber: UInt16) {
        guard !entries.isEmpty else { return }
        entries[Int(sequenceNumber) % capacity]?.renackedAfterRtx = true
    }
}
