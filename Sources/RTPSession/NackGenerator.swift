import RTCBase

/// Decides which missing packets to NACK and when (RFC 4585 6.2.1 feedback), sans-IO.
///
/// A gap in sequence numbers puts the missing packets on a list. Each is NACKed
/// `firstDelay` after it went missing (so mild reordering fills in first), then again
/// every retry interval (the round-trip time plus a margin, at least
/// `minimumRetryInterval`) up to `maxRetries` times; then it is given up. The list holds
/// at most `maxMissing` packets (the oldest go first).
public struct NackGenerator: Sendable {
    public struct Configuration: Equatable, Sendable {
        public var firstDelay: Duration = .milliseconds(10)
        public var maxRetries = 10
        public var minimumRetryInterval: Duration = .milliseconds(20)
        public var maxMissing = 1000
        public init() {}
    }

    private struct Entry: Sendable {
        var due: Instant
        var sent = 0
        var firstSent: Instant?
    }

    public let configuration: Configuration
    private var missing: [Int64: Entry] = [:]
    /// Packets NACKed at least once that later arrived.
    public private(set) var recovered = 0
    /// Packets dropped from the list after `maxRetries` NACKs or by overflow.
    public private(set) var givenUp = 0
    /// Smoothed time from a packet's first NACK to its arrival (a round-trip estimate
    /// for receivers that get no RTCP sender reports).
    public private(set) var nackResponseTime: Duration?

    public init(configuration: Configuration = .init()) { self.configuration = configuration }

    public var missingCount: Int { missing.count }

    /// Packets `range` went missing at `now`.
    mutating func markMissing(_ range: Range<Int64>, now: Instant) {
        let from = max(range.lowerBound, range.upperBound - Int64(configuration.maxMissing))
        for sequence in from..<range.upperBound { missing[sequence] = Entry(due: now + configuration.firstDelay) }
        let excess = missing.count - configuration.maxMissing
        if excess > 0 {
            for sequence in missing.keys.sorted().prefix(excess) {
                missing[sequence] = nil
                givenUp += 1
            }
        }
    }

    /// Packet `sequence` arrived; returns true when it had been NACKed (a recovery).
    mutating func arrived(_ sequence: Int64, now: Instant) -> Bool {
        guard let entry = missing.removeValue(forKey: sequence) else { return false }
        guard let firstSent = entry.firstSent else { return false }
        recovered += 1
        let sample = now - firstSent
        nackResponseTime = nackResponseTime.map { ($0 * 7 + sample) / 8 } ?? sample
        return true
    }

    /// Forgets everything (the stream restarted).
    mutating func reset() { missing.removeAll() }

    /// The sequence numbers to NACK now, oldest first; gives up on packets NACKed
    /// `maxRetries` times.
    mutating func due(now: Instant, roundTripTime: Duration?) -> [Int64] {
        let retry = max(configuration.minimumRetryInterval, (roundTripTime ?? .milliseconds(100)) * 5 / 4)
        var due: [Int64] = []
        for (sequence, entry) in missing where entry.due <= now {
            if entry.sent >= configuration.maxRetries {
                missing[sequence] = nil
                givenUp += 1
                continue
            }
            missing[sequence] = Entry(due: now + retry, sent: entry.sent + 1, firstSent: entry.firstSent ?? now)
            due.append(sequence)
        }
        return due.sorted()
    }

    /// When the next NACK is due.
    var nextDue: Instant? { missing.values.lazy.map(\.due).min() }
}
