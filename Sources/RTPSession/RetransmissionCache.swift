import RTCBase

/// The last `capacity` packets sent on a stream, to answer NACKs (RFC 4585 6.2.1).
///
/// A ring indexed by sequence number. Entries keep the header fields and a reference to
/// the payload array, which is shared with every other publisher of the same encoded
/// frame, so a cache costs a few dozen bytes per packet, not a copy of it.
struct RetransmissionCache: Sendable {
    /// 24 bytes, not 40: the flags share a byte and "never resent" is a sentinel instant,
    /// so a publisher's 512-entry video cache takes 12 KB instead of 20.
    struct Entry: Sendable {
        var payload: [UInt8]
        /// `lastResent` in nanoseconds; `Int64.min`: never resent.
        private var lastResentNanoseconds = Int64.min
        var timestamp: UInt32
        var sequenceNumber: UInt16
        private var flags: UInt8

        private static let markerFlag: UInt8 = 1
        private static let resentAsRtxFlag: UInt8 = 2
        private static let renackedAfterRtxFlag: UInt8 = 4

        init(sequenceNumber: UInt16, timestamp: UInt32, marker: Bool, payload: [UInt8]) {
            self.sequenceNumber = sequenceNumber
            self.timestamp = timestamp
            self.payload = payload
            flags = marker ? Self.markerFlag : 0
        }

        var marker: Bool { flags & Self.markerFlag != 0 }

        var lastResent: Instant? {
            get { lastResentNanoseconds == .min ? nil : Instant(nanoseconds: lastResentNanoseconds) }
            set { lastResentNanoseconds = newValue?.nanoseconds ?? .min }
        }

        /// Resent on the RTX stream (RFC 4588) at least once.
        var resentAsRtx: Bool {
            get { flags & Self.resentAsRtxFlag != 0 }
            set { set(Self.resentAsRtxFlag, newValue) }
        }

        /// NACKed again after an RTX resend had time to arrive (counted once).
        var renackedAfterRtx: Bool {
            get { flags & Self.renackedAfterRtxFlag != 0 }
            set { set(Self.renackedAfterRtxFlag, newValue) }
        }

        private mutating func set(_ flag: UInt8, _ on: Bool) {
            flags = on ? flags | flag : flags & ~flag
        }
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
