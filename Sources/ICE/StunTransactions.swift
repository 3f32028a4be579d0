import RTCBase
import STUN

/// Outstanding STUN requests and their retransmission over UDP (RFC 8489 6.2.1): sent at
/// 0, RTO, 3 RTO, 7 RTO ... up to `maxTransmissions` times, then given up `lastWaitFactor`
/// RTOs after the last send; or sent once and given up after a fixed wait (libwebrtc's
/// connectivity checks). `Purpose` says what the caller does with the answer.
struct StunTransactions<Purpose: Sendable>: Sendable {
    struct Entry: Sendable {
        var purpose: Purpose
        var transmit: Transmit
        var firstSent: Instant
        var deadline: Instant
        var sends: Int
        /// Sent once, never retransmitted: times out at `deadline`.
        var once = false
        /// Cancelled: no more retransmissions, and no timeout reported (RFC 8445 7.3.1.4);
        /// a late answer is still accepted until the deadline.
        var cancelled = false
    }

    var rto: Duration
    var maxTransmissions: Int
    var lastWaitFactor: Int
    private(set) var entries: [TransactionID: Entry] = [:]

    init(rto: Duration, maxTransmissions: Int, lastWaitFactor: Int) {
        self.rto = rto
        self.maxTransmissions = max(1, maxTransmissions)
        self.lastWaitFactor = lastWaitFactor
    }

    /// Records a request that the caller sends now: retransmitted by the schedule, or, with
    /// `onceFor`, never retransmitted and given up that long after.
    mutating func start(_ id: TransactionID, purpose: Purpose, transmit: Transmit, now: Instant, onceFor wait: Duration? = nil) {
        entries[id] = Entry(purpose: purpose, transmit: transmit, firstSent: now, deadline: now + (wait ?? delay(afterSend: 1)),
                            sends: 1, once: wait != nil)
    }

    /// Removes and returns the transaction a response answers.
    mutating func complete(_ id: TransactionID) -> Entry? {
        entries.removeValue(forKey: id)
    }

    /// Forgets every transaction whose purpose matches.
    mutating func cancel(where matches: (Purpose) -> Bool) {
        entries = entries.filter { !matches($0.value.purpose) }
    }

    /// Cancels the transactions whose purpose matches (RFC 8445 7.3.1.4): they stop
    /// retransmitting and wait out the transaction timeout silently. Returns their purposes.
    @discardableResult
    mutating func stopRetransmitting(where matches: (Purpose) -> Bool) -> [Purpose] {
        let timeout = self.timeout
        var stopped: [Purpose] = []
        for (id, entry) in entries where matches(entry.purpose) && !entry.cancelled {
            entries[id]?.cancelled = true
            if !entry.once { entries[id]?.deadline = entry.firstSent + timeout }
            stopped.append(entry.purpose)
        }
        return stopped
    }

    /// The time from the first transmission to giving up: Rc sends, then Rm RTOs.
    var timeout: Duration {
        (1..<maxTransmissions).reduce(Duration.zero) { $0 + delay(afterSend: $1) } + delay(afterSend: maxTransmissions)
    }

    /// The soonest deadline. Asked after every datagram a peer handles, so a plain loop:
    /// a key path over this generic type costs a runtime metadata lookup per call. Most
    /// of the time nothing is outstanding, and iterating even an empty dictionary was
    /// 150 instructions (2.4 % of a player's, `PeerReceiveBenchmark`).
    var nextDeadline: Instant? {
        guard !entries.isEmpty else { return nil }
        var soonest: Instant?
        for entry in entries.values where soonest.map({ entry.deadline < $0 }) ?? true { soonest = entry.deadline }
        return soonest
    }

    /// The transaction a response answers, left in place (for checks before completing).
    func entry(_ id: TransactionID) -> Entry? { entries[id] }

    /// Advances to `now`: returns the requests to send again and the purposes of the
    /// transactions that timed out (both in a stable order).
    mutating func expire(now: Instant) -> (retransmit: [Entry], timedOut: [Purpose]) {
        var retransmit: [Entry] = []
        var timedOut: [(TransactionID, Purpose)] = []
        for (id, entry) in entries where entry.deadline <= now {
            if entry.cancelled {
                entries[id] = nil
            } else if entry.once || entry.sends >= maxTransmissions {
                entries[id] = nil
                timedOut.append((id, entry.purpose))
            } else {
                var updated = entry
                updated.sends += 1
                updated.deadline = now + delay(afterSend: updated.sends)
                entries[id] = updated
                retransmit.append(updated)
            }
        }
        return (retransmit.sorted { $0.firstSent < $1.firstSent },
                timedOut.sorted { ($0.0.high, $0.0.low) < ($1.0.high, $1.0.low) }.map(\.1))
    }

    /// Time to wait after the `count`-th transmission: RTO doubled each time, and
    /// `lastWaitFactor` RTOs after the last one.
    private func delay(afterSend count: Int) -> Duration {
        if count >= maxTransmissions { return rto * lastWaitFactor }
        return rto * (1 << min(count - 1, 20))
    }
}
