import CShims
import RTCBase

/// The process's one source of "now": `CLOCK_MONOTONIC`, shared by every process on the
/// machine, so instants taken in different workers compare exactly (METRICS.md).
public enum MonotonicClock {
    @inline(__always)
    public static func now() -> Instant { Instant(nanoseconds: rs_monotonic_ns()) }
}
