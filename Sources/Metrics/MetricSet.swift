/// The figures of a run (or of one worker's share of it), keyed by `MetricName`.
///
/// Distributions are `Histogram`s, totals `Counter`s, levels `Gauge`s. Sets from workers
/// and shards `merge` exactly. A threshold reads a figure through a `MetricAddress`.
///
/// JSON form: one object keyed by metric name, holding a histogram object, a counter
/// integer or a gauge number by the name's kind:
///
///     {"setup_ms": {"min": 212.5, ...}, "failed_peers": 2, "connected_peers": 98}
public struct MetricSet: Equatable, Sendable {
    public private(set) var histograms: [MetricName: Histogram] = [:]
    public private(set) var counters: [MetricName: Counter] = [:]
    public private(set) var gauges: [MetricName: Gauge] = [:]

    public init() {}

    /// Records one value of a distribution (`name.kind == .distribution`).
    public mutating func record(_ value: Double, in name: MetricName) {
        precondition(name.kind == .distribution, "\(name.rawValue) is not a distribution")
        histograms[name, default: Histogram()].record(value)
    }

    /// Adds to a total (`name.kind == .counter`).
    public mutating func increment(_ name: MetricName, by amount: Int = 1) {
        precondition(name.kind == .counter, "\(name.rawValue) is not a counter")
        counters[name, default: Counter()].increment(by: amount)
    }

    /// Sets a level (`name.kind == .gauge`).
    public mutating func set(_ name: MetricName, to value: Double) {
        precondition(name.kind == .gauge, "\(name.rawValue) is not a gauge")
        gauges[name, default: Gauge()].set(value)
    }

    /// Adds a histogram recorded elsewhere (a stream's own jitter figures, a worker's lag).
    public mutating func merge(_ histogram: Histogram, into name: MetricName) {
        precondition(name.kind == .distribution, "\(name.rawValue) is not a distribution")
        histograms[name, default: Histogram()].merge(histogram)
    }

    /// Adds every figure of `other`: histograms and counters exactly, gauges by adding.
    public mutating func merge(_ other: MetricSet) {
        for (name, histogram) in other.histograms { histograms[name, default: Histogram()].merge(histogram) }
        for (name, counter) in other.counters { counters[name, default: Counter()].merge(counter) }
        for (name, gauge) in other.gauges { gauges[name, default: Gauge()].merge(gauge) }
    }

    /// The figure at `address`: a statistic of a distribution (nil when nothing was
    /// recorded), or a counter or gauge (0 when never touched: nothing counted).
    public func value(at address: MetricAddress) -> Double? {
        switch address.name.kind {
        case .distribution:
            guard let statistic = address.statistic, let histogram = histograms[address.name] else { return nil }
            return statistic.value(of: histogram)
        case .counter:
            return Double(counters[address.name]?.value ?? 0)
        case .gauge:
            return gauges[address.name]?.value ?? 0
        }
    }
}

extension MetricSet: Codable {
    private struct NameKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        init(_ name: MetricName) { stringValue = name.rawValue }
    }

    public init(from decoder: any Decoder) throws {
        self.init()
        let fields = try decoder.container(keyedBy: NameKey.self)
        for key in fields.allKeys {
            guard let name = MetricName(named: key.stringValue) else {
                let allowed = MetricName.allCases.map(\.rawValue).joined(separator: ", ")
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: fields, debugDescription: "unknown metric '\(key.stringValue)'; allowed: \(allowed)")
            }
            switch name.kind {
            case .distribution: histograms[name] = try fields.decode(Histogram.self, forKey: key)
            case .counter: counters[name] = try fields.decode(Counter.self, forKey: key)
            case .gauge: gauges[name] = try fields.decode(Gauge.self, forKey: key)
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: NameKey.self)
        for name in MetricName.allCases {
            try fields.encodeIfPresent(histograms[name], forKey: NameKey(name))
            try fields.encodeIfPresent(counters[name], forKey: NameKey(name))
            try fields.encodeIfPresent(gauges[name], forKey: NameKey(name))
        }
    }
}
