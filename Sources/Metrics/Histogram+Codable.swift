/// Compact JSON for a histogram: exact figures and the non-empty buckets as pairs of
/// (key step from the previous non-empty bucket, count):
///
///     {"min": 212.5, "max": 1830, "sum": 51220.5, "buckets": [1121345, 3, 17, 1, 2, 5]}
///
/// A bucket key is the top 22 bits of the IEEE 754 pattern of the values it holds (see
/// `Histogram`). `below` (values under 2^-20) and `invalid` appear only when not zero; an
/// empty histogram is `{"sum": 0, "buckets": []}`. Decoding checks every number, so a
/// damaged file fails with a message instead of producing wrong figures.
extension Histogram: Codable {
    private enum Field: String, CodingKey {
        case min, max, sum, below, invalid, buckets
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Field.self)
        try fields.encodeIfPresent(min, forKey: .min)
        try fields.encodeIfPresent(max, forKey: .max)
        try fields.encode(sum, forKey: .sum)
        if belowLowest > 0 { try fields.encode(belowLowest, forKey: .below) }
        if invalidCount > 0 { try fields.encode(invalidCount, forKey: .invalid) }
        var pairs: [Int] = []
        var previous = 0
        for (key, bucketCount) in occupiedBuckets {
            pairs.append(key - previous)
            pairs.append(bucketCount)
            previous = key
        }
        try fields.encode(pairs, forKey: .buckets)
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Field.self)
        func fail(_ field: Field, _ message: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: field, in: fields, debugDescription: message)
        }
        self.init()
        belowLowest = try fields.decodeIfPresent(Int.self, forKey: .below) ?? 0
        invalidCount = try fields.decodeIfPresent(Int.self, forKey: .invalid) ?? 0
        guard belowLowest >= 0 else { throw fail(.below, "must be >= 0") }
        guard invalidCount >= 0 else { throw fail(.invalid, "must be >= 0") }
        let pairs = try fields.decode([Int].self, forKey: .buckets)
        guard pairs.count % 2 == 0 else { throw fail(.buckets, "must hold (key step, count) pairs") }
        var key = 0
        var total = belowLowest
        for index in stride(from: 0, to: pairs.count, by: 2) {
            let (step, bucketCount) = (pairs[index], pairs[index + 1])
            guard step >= (index == 0 ? 0 : 1), step <= Self.highestKey, bucketCount > 0 else {
                throw fail(.buckets, "pair \(index / 2): key steps must increase and counts be positive")
            }
            key += step
            guard key >= Self.lowestKey, key <= Self.highestKey else {
                throw fail(.buckets, "pair \(index / 2): key \(key) outside \(Self.lowestKey)...\(Self.highestKey)")
            }
            let (newTotal, overflow) = total.addingReportingOverflow(bucketCount)
            guard !overflow else { throw fail(.buckets, "counts overflow") }
            total = newTotal
            add(bucketCount, toKey: key)
        }
        count = total
        sum = try fields.decode(Double.self, forKey: .sum)
        guard sum.isFinite, sum >= 0 else { throw fail(.sum, "must be a finite number >= 0") }
        if count > 0 {
            minimum = try fields.decode(Double.self, forKey: .min)
            maximum = try fields.decode(Double.self, forKey: .max)
            guard minimum >= 0, minimum <= maximum, maximum.isFinite else {
                throw fail(.max, "min and max must satisfy 0 <= min <= max < infinity")
            }
        }
    }
}
