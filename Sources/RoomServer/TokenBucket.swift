import RTCBase

/// A token bucket: `rate` tokens a second, holding at most `burst`, one token per
/// message. The room server keeps one per connection and one per client address, so
/// reconnecting does not buy a fresh allowance.
struct TokenBucket {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var lastRefill: Instant

    init(rate: Double, burst: Double, now: Instant) {
        self.rate = rate
        self.burst = burst
        tokens = burst
        lastRefill = now
    }

    /// Takes one token; false when there is none (the caller is over its rate).
    mutating func take(now: Instant) -> Bool {
        refill(now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Full again: it then says nothing a fresh bucket would not, and can be forgotten.
    func isFull(now: Instant) -> Bool {
        tokens + Double((now - lastRefill).nanoseconds) / 1e9 * rate >= burst
    }

    private mutating func refill(now: Instant) {
        tokens = min(burst, tokens + Double((now - lastRefill).nanoseconds) / 1e9 * rate)
        lastRefill = now
    }
}
