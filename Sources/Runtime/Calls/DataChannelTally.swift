import RTCBase

/// What one side of a call received on one data channel, counted from the messages'
/// stamps (`DataMessageStamp`): received, missing below the highest sequence number (as
/// RFC 3550 A.3 counts RTP, losses after the last arrival are not seen), arrived after a
/// higher number, latency and throughput. A few words per channel: the run's latency
/// distribution is kept by the worker, not here.
struct DataChannelTally {
    /// Whether loss counts from the lowest sequence number received rather than from 0: a
    /// receiver that joins a stream of messages in progress (a VideoRoom subscriber) cannot
    /// get what was sent before it joined.
    let countsFromLowest: Bool
    private(set) var received = 0
    private(set) var reordered = 0
    private(set) var unreadable = 0
    private var highest: UInt64?
    private var lowest: UInt64?
    private var bytes = 0
    private var first: Instant?
    private var last: Instant?
    private var latencySum = 0.0
    private(set) var latencyMaxMs: Double?

    init(countsFromLowest: Bool = false) {
        self.countsFromLowest = countsFromLowest
    }

    /// Counts one message arriving at `now`; returns its latency in milliseconds (half the
    /// round trip when `halved`: an echo of our own message), or nil for a message without
    /// a stamp (counted as unreadable).
    mutating func receive(_ message: [UInt8], now: Instant, halved: Bool) -> Double? {
        guard let stamp = DataMessageStamp(reading: message) else {
            unreadable += 1
            return nil
        }
        received += 1
        bytes += message.count
        if first == nil { first = now }
        last = now
        if let highest, stamp.sequence < highest { reordered += 1 } else { highest = stamp.sequence }
        lowest = min(lowest ?? stamp.sequence, stamp.sequence)
        let latency = max(0, now.milliseconds(since: stamp.sentAt)) / (halved ? 2 : 1)
        latencySum += latency
        latencyMaxMs = max(latencyMaxMs ?? 0, latency)
        return latency
    }

    /// Sequence numbers from 0 (or the lowest received) to the highest received that never came.
    var lost: Int {
        guard let highest else { return 0 }
        let base = countsFromLowest ? Int(lowest ?? 0) : 0
        return max(0, Int(highest) + 1 - base - received)
    }

    var latencyMeanMs: Double? { received > 0 ? latencySum / Double(received) : nil }

    /// Bytes received over the time from the first to the last arrival, in kbps; nil until
    /// two arrivals are apart in time.
    var throughputKbps: Double? {
        guard let first, let last, last > first else { return nil }
        return Double(bytes) * 8 / last.milliseconds(since: first)
    }
}
