import RTCBase

/// NTP timestamps for RTCP (RFC 3550 4): 32.32 fixed-point seconds since 1900.
///
/// Sans-IO code never reads the wall clock, so NTP time is the monotonic `Instant` plus
/// a fixed origin: the NTP time of `Instant.zero`, which the driver may set from the
/// wall clock once (cross-machine figures need it; round-trip times do not).
public struct NtpTime: Sendable {
    /// NTP time (32.32) at `Instant.zero`.
    public var origin: UInt64

    public init(origin: UInt64 = 0) { self.origin = origin }

    /// The 64-bit NTP timestamp of `instant`.
    public func timestamp(at instant: Instant) -> UInt64 {
        let nanoseconds = UInt64(max(0, instant.nanoseconds))
        let seconds = nanoseconds / 1_000_000_000
        let fraction = (nanoseconds % 1_000_000_000) << 32 / 1_000_000_000
        return origin &+ (seconds << 32 | fraction)
    }

    /// The middle 32 bits (16.16 seconds), the unit of LSR and DLSR (RFC 3550 6.4.1).
    public func compact(at instant: Instant) -> UInt32 {
        UInt32(truncatingIfNeeded: timestamp(at: instant) >> 16)
    }

    /// A duration in 1/65536 s, as DLSR counts it.
    public static func compactDuration(_ duration: Duration) -> UInt32 {
        let nanoseconds = max(0, duration.nanoseconds)
        // Seconds and fraction apart: nanoseconds x 65536 would overflow after 39 hours.
        let seconds = nanoseconds / 1_000_000_000
        return UInt32(clamping: seconds * 65_536 + nanoseconds % 1_000_000_000 * 65_536 / 1_000_000_000)
    }
}
