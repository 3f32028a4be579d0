/// The share of observations that passed a check, as k6's `Rate`: for instance the
/// frames of a stream whose resolution equals the published one (`resolution_survival`,
/// METRICS.md). Merging adds both counts, so shares from workers combine exactly.
public struct Rate: Hashable, Sendable, Codable {
    /// Observations that passed.
    public private(set) var hits: Int
    /// All observations.
    public private(set) var total: Int

    public init() {
        hits = 0
        total = 0
    }

    /// Records one observation.
    public mutating func record(_ passed: Bool) {
        total += 1
        if passed { hits += 1 }
    }

    /// The passed share in percent (0...100); nil before any observation.
    public var percent: Double? { total > 0 ? Double(hits) * 100 / Double(total) : nil }

    public mutating func merge(_ other: Rate) {
        hits += other.hits
        total += other.total
    }

    private enum CodingKeys: String, CodingKey { case hits, total }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        hits = try fields.decode(Int.self, forKey: .hits)
        total = try fields.decode(Int.self, forKey: .total)
        guard hits >= 0, hits <= total else {
            throw DecodingError.dataCorruptedError(forKey: .hits, in: fields, debugDescription: "need 0 <= hits <= total")
        }
    }
}
