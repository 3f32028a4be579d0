/// One figure of a `MetricSet`: a count by its bare name (`failed_peers`) or a statistic of
/// a distribution (`setup_ms.p95`).
public struct MetricAddress: Hashable, Sendable, CustomStringConvertible {
    public var name: MetricName
    /// Present exactly when `name` is a distribution.
    public var statistic: Statistic?

    /// The address of a distribution's statistic.
    public init(_ name: MetricName, _ statistic: Statistic) {
        self.name = name
        self.statistic = statistic
    }

    /// The address of a counter or gauge.
    public init(_ name: MetricName) {
        self.name = name
        statistic = nil
    }

    /// Parses `name` or `name.statistic`, with errors that name the bad part and list
    /// what is allowed.
    public init(parsing text: String) throws(ThresholdError) {
        // A name may hold a dot itself (`video.loss_pct`): the whole text names a count, or
        // the shortest part before a dot that is a name names a distribution. An unknown
        // name is what stands before a trailing statistic, else before the first dot.
        let dots = text.indices.filter { text[$0] == "." }
        let whole = MetricName(named: text)
        let split = whole != nil ? nil : dots.first { MetricName(named: String(text[..<$0])) != nil }
        let beforeStatistic = dots.last.flatMap { Statistic(rawValue: String(text[text.index(after: $0)...])) != nil ? $0 : nil }
        let nameEnd = whole != nil ? text.endIndex : split ?? beforeStatistic ?? dots.first ?? text.endIndex
        let nameText = String(text[..<nameEnd])
        let statisticText = split.map { String(text[text.index(after: $0)...]) }
        guard let name = MetricName(named: nameText) else {
            let allowed = MetricName.allCases.map(\.rawValue).joined(separator: ", ")
            throw ThresholdError("unknown metric '\(nameText)'; allowed: \(allowed)")
        }
        let allowedStatistics = Statistic.allCases.map { ".\($0.rawValue)" }.joined(separator: " ")
        switch (name.kind, statisticText) {
        case (.distribution, nil):
            throw ThresholdError("'\(nameText)' is a distribution: add one of \(allowedStatistics)")
        case (.distribution, let statisticText?):
            guard let statistic = Statistic(rawValue: statisticText) else {
                throw ThresholdError("unknown statistic '.\(statisticText)' of '\(nameText)'; allowed: \(allowedStatistics)")
            }
            self.init(name, statistic)
        case (_, nil):
            self.init(name)
        case (_, let statisticText?):
            throw ThresholdError("'\(nameText)' is a count: use its bare name, without '.\(statisticText)'")
        }
    }

    public var description: String {
        statistic.map { "\(name.rawValue).\($0.rawValue)" } ?? name.rawValue
    }
}
