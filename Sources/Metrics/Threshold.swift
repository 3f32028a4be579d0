/// A pass/fail rule of a scenario, such as `setup_ms.p95 < 500`, `loss_pct.max < 1`,
/// `resolution_survival.min == 100` or `failed_peers == 0` (METRICS.md "Verdict").
///
/// Grammar: `<metric>[.<statistic>] <operator> <number>`, spaces optional, where the
/// metric is a `MetricName`, the statistic one of `p50 p95 p99 min max mean` (required
/// for distributions, forbidden for counts) and the operator one of `< <= > >= == !=`.
/// In scenario files a threshold is that string.
public struct Threshold: Hashable, Sendable, CustomStringConvertible {
    /// How the measured figure compares with the limit.
    public enum Comparison: String, CaseIterable, Hashable, Sendable {
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case equal = "=="
        case notEqual = "!="

        public func holds(_ measured: Double, _ limit: Double) -> Bool {
            switch self {
            case .less: measured < limit
            case .lessOrEqual: measured <= limit
            case .greater: measured > limit
            case .greaterOrEqual: measured >= limit
            case .equal: measured == limit
            case .notEqual: measured != limit
            }
        }
    }

    /// The outcome for one run: one JUnit test case.
    public struct Result: Hashable, Sendable {
        public var passed: Bool
        /// The figure compared; nil when the run recorded none (which fails the threshold).
        public var measured: Double?
    }

    public var address: MetricAddress
    public var comparison: Comparison
    public var limit: Double

    public init(_ address: MetricAddress, _ comparison: Comparison, _ limit: Double) {
        self.address = address
        self.comparison = comparison
        self.limit = limit
    }

    /// Evaluates against a run's figures. A distribution with no values fails (a
    /// threshold on setup time with no peer set up must not pass); counters and gauges
    /// never touched read as 0.
    public func evaluate(_ metrics: MetricSet) -> Result {
        guard let measured = metrics.value(at: address) else { return Result(passed: false, measured: nil) }
        return Result(passed: comparison.holds(measured, limit), measured: measured)
    }

    public var description: String {
        let number = limit == limit.rounded() && abs(limit) < 1e15 ? String(Int64(limit)) : String(limit)
        return "\(address) \(comparison.rawValue) \(number)"
    }
}

extension Threshold: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            try self.init(parsing: try container.decode(String.self))
        } catch let error as ThresholdError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
