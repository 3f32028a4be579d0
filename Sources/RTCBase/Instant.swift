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
    /// The whole duration in nanoseconds, saturating at the bounds of `Int64`.
    @inlinable
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled &+ attoseconds / 1_000_000_000
    }

    /// The duration in milliseconds, as a fraction.
    @inlinable
    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }
}
