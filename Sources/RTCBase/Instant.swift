/// A point on the monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds.
///
/// Sans-IO code never reads a clock: every `handle(..., now:)` receives the current
/// `Instant` from its driver (the event loop, or a virtual clock in tests). All processes
/// on one machine share this clock, so instants from different workers compare exactly.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since an arbitrary, fixed origin (boot, for `CLOCK_MONOTONIC`).
    public var nanoseconds: Int64

    @inlinable
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The origin of the clock; virtual clocks in tests start here.
    public static let zero = Instant(nanoseconds: 0)

    @inlinable
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    @inlinable
    public static func + (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }

    @inlinable
    public static func - (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }

    /// The time from `rhs` to `lhs`.
    @inlinable
    public static func - (lhs: Instant, rhs: Instant) -> Duration {
        .nanoseconds(lhs.nanoseconds &- rhs.nanoseconds)
    }

    @inlinable
    public static func += (lhs: inout Instant, rhs: Duration) { lhs = lhs + rhs }

    /// Milliseconds since `earlier`, as a fraction (the unit reports use).
    @inlinable
    public func milliseconds(since earlier: Instant) -> Double {
        Double(nanoseconds &- earlier.nanoseconds) / 1_000_000
    }

    public var description: String { "\(Double(nanoseconds) / 1e9)s" }
}

extension Duration {
    /// The whole duration in nanoseconds (truncated toward zero), saturating at the bounds
    /// of `Int64`. In 64-bit divisions: `components` and a 128-bit division both went
    /// through the software 128-bit divide, 2.5 % of a player's instructions
    /// (`PeerReceiveBenchmark`), where every deadline is an `Instant` plus a `Duration`.
    @inlinable
    public var nanoseconds: Int64 {
        let attoseconds = attoseconds
        // Within about 9.2 s either way the count fits 64 bits.
        if let small = Int64(exactly: attoseconds) { return small / 1_000_000_000 }
        let magnitude = attoseconds.magnitude
        let high = UInt64(truncatingIfNeeded: magnitude >> 64)
        let saturated: Int64 = attoseconds < 0 ? .min : .max
        // The quotient of a 128-bit count by 10^9 fits 64 bits while the high half is below 10^9.
        guard high < 1_000_000_000 else { return saturated }
        let quotient = UInt64(1_000_000_000).dividingFullWidth((high, UInt64(truncatingIfNeeded: magnitude))).quotient
        guard let whole = Int64(exactly: quotient) else { return saturated }
        return attoseconds < 0 ? -whole : whole
    }

    /// The duration in milliseconds, as a fraction.
    @inlinable
    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }
}
