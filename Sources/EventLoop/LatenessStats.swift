/// How late timers fired: the event loop's lag, which METRICS.md uses to tell a
/// saturated harness from a slow server.
///
/// Values go into power-of-two microsecond buckets (0-1 us, 1-2 us, 2-4 us, ...), enough
/// for p50/p99 to within a factor of two; count, mean and max are exact.
public struct LatenessStats: Sendable, Equatable {
    public private(set) var count: Int = 0
    public private(set) var totalNanoseconds: Int64 = 0
    public private(set) var maxNanoseconds: Int64 = 0
    /// `buckets[i]` counts values below 2^i microseconds (and at least 2^(i-1)).
    public private(set) var buckets = [Int](repeating: 0, count: 40)

    public init() {}

    public mutating func record(nanoseconds: Int64) {
        let value = max(0, nanoseconds)
        count += 1
        totalNanoseconds += value
        maxNanoseconds = max(maxNanoseconds, value)
        let micros = UInt64(value / 1_000)
        let bucket = micros == 0 ? 0 : min(buckets.count - 1, 64 - micros.leadingZeroBitCount)
        buckets[bucket] += 1
    }

    public var meanMilliseconds: Double {
        count == 0 ? 0 : Double(totalNanoseconds) / Double(count) / 1e6
    }

    public var maxMilliseconds: Double { Double(maxNanoseconds) / 1e6 }

    /// The upper edge of the bucket holding the given percentile, in milliseconds
    /// (never above the exact maximum).
    public func percentileMilliseconds(_ percent: Double) -> Double {
        guard count > 0 else { return 0 }
        let rank = Int((percent / 100 * Double(count)).rounded(.up))
        var seen = 0
        for (index, bucketCount) in buckets.enumerated() {
            seen += bucketCount
            if seen >= max(1, rank) {
                let upperMicros = Double(UInt64(1) << UInt64(index))
                return min(upperMicros / 1_000, maxMilliseconds)
            }
        }
        return maxMilliseconds
    }
}
