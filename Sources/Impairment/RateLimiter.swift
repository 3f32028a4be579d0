import RTCBase

/// A token bucket in front of a FIFO queue: the rate limit of a link (as Linux `tbf`).
///
/// Tokens (bytes) accrue at the link rate up to the bucket depth; a packet leaves when the
/// bucket holds its size, in arrival order. A packet that has to wait occupies the queue
/// until it leaves; when the queue is at its packet or byte limit, an arriving packet that
/// would have to wait is dropped. Departure times are computed on arrival, so the limiter
/// never needs a timer of its own.
struct RateLimiter: Sendable {
    /// Limits in force for one packet (taken from the active profile).
    struct Limits: Sendable {
        var bytesPerSecond: Double
        var bucketBytes: Int
        var queuePackets: Int?
        var queueBytes: Int?
    }

    /// Bytes in the bucket at `tokenTime`; nil before the first packet (the bucket starts full).
    private var tokens: Double?
    private var tokenTime = Instant.zero
    private var lastDeparture = Instant.zero
    /// Departure times and sizes of packets that may still be waiting, oldest first,
    /// from index `head` on (a ring without wrapping; compacted as it drains).
    private var waiting: [(departure: Instant, size: Int)] = []
    private var head = 0
    private var waitingBytes = 0

    init() {}

    /// Packets waiting at the last call.
    var queuedPackets: Int { waiting.count - head }

    /// The instant the packet leaves the limiter, or nil when the queue is full.
    mutating func admit(size: Int, now: Instant, limits: Limits) -> Instant? {
        drain(until: now)
        let depth = Double(max(limits.bucketBytes, size))
        let start = max(now, lastDeparture)
        let elapsed = Double((start - tokenTime).nanoseconds) / 1e9
        var available = min(depth, tokens.map { $0 + elapsed * limits.bytesPerSecond } ?? depth)
        var departure = start
        let needed = Double(size) - available
        if needed > 0 {
            let wait = (needed / limits.bytesPerSecond * 1e9).rounded(.up)
            departure = start + .nanoseconds(Int64(min(wait, 1e18)))
            available += wait / 1e9 * limits.bytesPerSecond
        }
        if departure > now {
            if let limit = limits.queuePackets, queuedPackets >= limit { return nil }
            if let limit = limits.queueBytes, waitingBytes + size > limit { return nil }
            waiting.append((departure, size))
            waitingBytes += size
        }
        tokens = max(0, available - Double(size))
        tokenTime = departure
        lastDeparture = departure
        return departure
    }

    /// Forgets packets that have left by `now`.
    private mutating func drain(until now: Instant) {
        while head < waiting.count, waiting[head].departure <= now {
            waitingBytes -= waiting[head].size
            head += 1
        }
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
    }
}
