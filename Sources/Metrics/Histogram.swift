/// A distribution of non-negative figures with 3 significant digits, in the manner of
/// HdrHistogram: exact counts in log-linear buckets, mergeable without loss.
///
/// Each power of two is split into 1024 equal buckets, so a bucket spans at most 1/1024 of
/// its lower bound and a percentile, reported as the middle of its bucket, is within
/// 1/2048 (0.05 %) of the recorded value of that rank. The bucket of a value is the top
/// 22 bits of its IEEE 754 bit pattern (exponent and the first 10 mantissa bits), which
/// grows with the value, so bucketing costs a shift and storage spans only the octaves
/// actually recorded (about 8 KB per power of two covered, never more than 520 KB).
///
/// `count`, `min`, `max` and the bucket counts are exact; merging histograms gives
/// exactly the histogram of all their values, so workers and shards merge without ever
/// averaging percentiles (METRICS.md). Values below 2^-20 (about 1e-6) share one bucket
/// reported as 0, values from 2^43 (about 8.8e12) up share the top bucket; `min` and `max`
/// stay exact. Negative, infinite and NaN values are not recorded but counted in
/// `invalidCount`, so a bug upstream shows up in the report instead of bending the figures.
public struct Histogram: Sendable {
    /// Bucket counts from key `firstKey` on; keys outside are zero.
    var buckets: [Int] = []
    var firstKey = 0
    /// Values below `lowestValue`.
    var belowLowest = 0
    var minimum = Double.infinity
    var maximum = -Double.infinity
    var sum = 0.0

    /// Values recorded (invalid ones excluded).
    public internal(set) var count = 0
    /// Values refused because they were negative, infinite or NaN.
    public internal(set) var invalidCount = 0

    public init() {}

    /// A histogram of `values`.
    public init<Values: Sequence>(_ values: Values) where Values.Element == Double {
        for value in values { record(value) }
    }

    static let subBucketBits = 10
    static let keyShift = 52 - UInt64(subBucketBits)
    static let lowestValue = 0x1p-20
    static let highestValue = 0x1p43
    static let lowestKey = key(lowestValue)
    static let highestKey = key(highestValue.nextDown)

    /// The bucket of a value within `lowestValue..<highestValue`.
    static func key(_ value: Double) -> Int { Int(truncatingIfNeeded: value.bitPattern >> keyShift) }

    /// The smallest value in bucket `key`.
    static func lowerBound(_ key: Int) -> Double { Double(bitPattern: UInt64(key) << keyShift) }

    /// Records one value.
    public mutating func record(_ value: Double) {
        record(value, times: 1)
    }

    /// Records one value `times` times (for figures that arrive pre-counted).
    public mutating func record(_ value: Double, times: Int) {
        guard times > 0 else { return }
        guard value >= 0, value.isFinite else {
            invalidCount += times
            return
        }
        count += times
        sum += value * Double(times)
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
        if value < Self.lowestValue {
            belowLowest += times
        } else {
            add(times, toKey: Self.key(Swift.min(value, Self.highestValue.nextDown)))
        }
    }

    /// The smallest value recorded, exactly; nil when empty.
    public var min: Double? { count > 0 ? minimum : nil }
    /// The largest value recorded, exactly; nil when empty.
    public var max: Double? { count > 0 ? maximum : nil }
    /// The arithmetic mean; nil when empty.
    public var mean: Double? { count > 0 ? sum / Double(count) : nil }

    /// The nearest-rank percentile (0...100): the recorded value of rank
    /// `ceil(q * count / 100)` (at least 1), to within 0.05 %; exact for the first and last
    /// rank (`percentile(0) == min`, `percentile(100) == max`). Nil when empty.
    public func percentile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let clamped = q.isNaN ? 0 : Swift.min(Swift.max(q, 0), 100)
        let rank = Swift.max(1, Int((clamped * Double(count) / 100).rounded(.up)))
        if rank == 1 { return minimum }
        if rank >= count { return maximum }
        var seen = belowLowest
        if seen >= rank { return Swift.min(Swift.max(0, minimum), maximum) }
        for (offset, bucketCount) in buckets.enumerated() where bucketCount > 0 {
            seen += bucketCount
            if seen >= rank {
                let key = firstKey + offset
                let middle = (Self.lowerBound(key) + Self.lowerBound(key + 1)) / 2
                return Swift.min(Swift.max(middle, minimum), maximum)
            }
        }
        return maximum
    }

    /// Adds every value of `other` to this histogram; the result equals the histogram of
    /// both value sets recorded into one (counts, min, max and percentiles exactly).
    public mutating func merge(_ other: Histogram) {
        count += other.count
        invalidCount += other.invalidCount
        belowLowest += other.belowLowest
        sum += other.sum
        minimum = Swift.min(minimum, other.minimum)
        maximum = Swift.max(maximum, other.maximum)
        for (key, bucketCount) in other.occupiedBuckets {
            add(bucketCount, toKey: key)
        }
    }

    /// The non-empty buckets as (key, count), in increasing key order.
    var occupiedBuckets: [(key: Int, count: Int)] {
        buckets.enumerated().compactMap { offset, bucketCount in
            bucketCount > 0 ? (firstKey + offset, bucketCount) : nil
        }
    }

    mutating func add(_ times: Int, toKey key: Int) {
        if buckets.isEmpty {
            firstKey = key
            buckets = [0]
        } else if key < firstKey {
            // Grow downwards with some room, so values drifting down do not copy each time.
            let newFirst = Swift.max(Self.lowestKey, Swift.min(key, firstKey - 256))
            buckets.insert(contentsOf: repeatElement(0, count: firstKey - newFirst), at: 0)
            firstKey = newFirst
        } else if key >= firstKey + buckets.count {
            let newEnd = Swift.min(Self.highestKey + 1, Swift.max(key + 1, firstKey + buckets.count + 256))
            buckets.append(contentsOf: repeatElement(0, count: newEnd - firstKey - buckets.count))
        }
        buckets[key - firstKey] += times
    }
}

extension Histogram: Equatable, CustomStringConvertible {
    /// Equal when they hold the same bucket counts, count, min and max, however their
    /// storage grew. The sums behind `mean` are not compared: floating-point addition
    /// rounds differently with the order values were added in (merged shards against one
    /// histogram of all values), in the last bits.
    public static func == (lhs: Histogram, rhs: Histogram) -> Bool {
        lhs.count == rhs.count && lhs.invalidCount == rhs.invalidCount && lhs.belowLowest == rhs.belowLowest
            && lhs.min == rhs.min && lhs.max == rhs.max
            && lhs.occupiedBuckets.elementsEqual(rhs.occupiedBuckets) { $0 == $1 }
    }

    public var description: String {
        guard count > 0 else { return "Histogram(empty)" }
        let figures = [("min", min), ("p50", percentile(50)), ("p95", percentile(95)), ("p99", percentile(99)), ("max", max)]
        let listed = figures.map { "\($0.0): \($0.1 ?? 0)" }.joined(separator: ", ")
        return "Histogram(count: \(count), \(listed), buckets: \(occupiedBuckets.count))"
    }
}
