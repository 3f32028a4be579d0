import RTCBase

/// Decides which missing packets to NACK and when (RFC 4585 6.2.1 feedback), sans-IO.
///
/// A gap in sequence numbers puts the missing packets on a list. Each is NACKed
/// `firstDelay` after it went missing (so mild reordering fills in first), then again
/// every retry interval (`NackConfiguration.retryInterval`) up to `maxRetries` times;
/// a retry interval after the last it is given up (`NackConfiguration.resendWindow`). The list holds
/// at most `maxMissing` packets (the oldest go first).
///
/// A retry is due a retry interval at the current round-trip time after the last NACK, as
/// libwebrtc's NACK module reckons it on every pass: a packet first NACKed before any round
/// trip was known (100 ms assumed) is asked for again at the pace of the one measured
/// since, so it is given up when the resend window its frame waits for says.
struct NackGenerator: Sendable {
    typealias Configuration = NackConfiguration

    private struct Entry: Sendable {
        var sequence: Int64
        /// When the gap that holds it opened.
        var missingSince: Instant
        var sent = 0
        var lastSent: Instant?

        func due(firstDelay: Duration, retry: Duration) -> Instant {
            lastSent.map { $0 + retry } ?? missingSince + firstDelay
        }
    }

    let configuration: Configuration
    /// Missing packets in ascending sequence order (gaps only open above the highest).
    private var missing: [Entry] = []
    /// No entry is due before this at the round-trip time last seen (it may be early
    /// after arrivals, or late until `roundTripTimeChanged`).
    private(set) var nextDue: Instant?
    /// Packets NACKed at least once that later arrived.
    private(set) var recovered = 0
    /// Packets dropped from the list after `maxRetries` NACKs or by overflow.
    private(set) var givenUp = 0
    /// Smoothed time from a packet's last NACK to its arrival (a round-trip estimate
    /// for receivers that get no RTCP sender reports).
    private(set) var nackResponseTime: Duration?

    init(configuration: Configuration) { self.configuration = configuration }

    /// Packets `range`, all above any already missing, went missing at `now`.
    mutating func markMissing(_ range: Range<Int64>, now: Instant) {
        let from = max(range.lowerBound, range.upperBound - Int64(configuration.maxMissing), (missing.last?.sequence ?? .min) + 1)
        guard from < range.upperBound else { return }
        let due = now + configuration.firstDelay
        for sequence in from..<range.upperBound { missing.append(Entry(sequence: sequence, missingSince: now)) }
        let excess = missing.count - configuration.maxMissing
        if excess > 0 {
            missing.removeFirst(excess)
            givenUp += excess
        }
        nextDue = min(nextDue ?? due, due)
    }

    /// Packet `sequence` arrived; when it had been NACKed (a recovery), returns how long
    /// it was missing: what the frame holding it waited for.
    mutating func arrived(_ sequence: Int64, now: Instant) -> Duration? {
        guard let index = position(of: sequence) else { return nil }
        let entry = missing.remove(at: index)
        if missing.isEmpty { nextDue = nil }
        guard let lastSent = entry.lastSent else { return nil }
        recovered += 1
        let sample = now - lastSent
        nackResponseTime = nackResponseTime.map { ($0 * 7 + sample) / 8 } ?? sample
        return now - entry.missingSince
    }

    /// Binary search in the ascending list.
    private func position(of sequence: Int64) -> Int? {
        var low = 0
        var high = missing.count
        while low < high {
            let middle = (low + high) / 2
            if missing[middle].sequence < sequence { low = middle + 1 } else { high = middle }
        }
        return low < missing.count && missing[low].sequence == sequence ? low : nil
    }

    /// The round-trip time changed: retries are reckoned again at the next `due`.
    mutating func roundTripTimeChanged(now: Instant) {
        if !missing.isEmpty { nextDue = now }
    }

    /// Forgets everything (the stream restarted).
    mutating func reset() {
        missing.removeAll()
        nextDue = nil
    }

    /// The sequence numbers to NACK now, oldest first; gives up on packets NACKed
    /// `maxRetries` times.
    mutating func due(now: Instant, roundTripTime: Duration?) -> [Int64] {
        guard let nextDue, nextDue <= now else { return [] }
        let retry = configuration.retryInterval(roundTripTime: roundTripTime)
        var due: [Int64] = []
        var kept = 0
        var earliest: Instant?
        for index in missing.indices {
            var entry = missing[index]
            var next = entry.due(firstDelay: configuration.firstDelay, retry: retry)
            if next <= now {
                if entry.sent >= configuration.maxRetries {
                    givenUp += 1
                    continue
                }
                entry.sent += 1
                entry.lastSent = now
                due.append(entry.sequence)
                next = now + retry
            }
            earliest = min(earliest ?? next, next)
            missing[kept] = entry
            kept += 1
        }
        missing.removeLast(missing.count - kept)
        self.nextDue = earliest
        return due
    }
}
