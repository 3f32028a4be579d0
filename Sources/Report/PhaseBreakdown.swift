import Metrics

/// Where setup time goes: every setup phase's p50/p95/p99/max (read from the cell's
/// histograms in report.json `metrics`), and the phases of the slowest 5 % of peers by
/// `setup_ms` (the mean of each phase over those peers in report.json `peers`) set beside
/// the median, so the phase that makes the tail slow is the one that grew most.
public struct PhaseBreakdown: Equatable, Sendable {
    /// The phases of a WebRTC peer's setup, in the order they happen (docs/metrics.md).
    public static let phases: [MetricName] = [.signalingMs, .iceMs, .dtlsMs, .firstPacketMs, .firstFrameMs, .setupMs]
    /// The phases drawn stacked: the parts of `setup_ms`, then the wait for the first frame.
    public static let stacked: [MetricName] = [.signalingMs, .iceMs, .dtlsMs, .firstFrameMs]

    public struct Row: Equatable, Sendable {
        public var phase: MetricName
        public var p50: Double?
        public var p95: Double?
        public var p99: Double?
        public var max: Double?
        /// The phase's mean over the slowest peers that recorded it.
        public var tailMean: Double?
    }

    public var rows: [Row]
    /// How many peers the slowest 5 % are (at least one when any peer set up).
    public var tailPeers: Int
    /// The `setup_ms` from which a peer counts among the slowest.
    public var tailFromMs: Double?

    /// Nil when the cell has no setup figures (a signaling-only run).
    public init?(_ cell: CellReport) {
        let timed = cell.peers.compactMap { peer in peer.phases["setup_ms"].map { (peer, $0) } }.sorted { $0.1 > $1.1 }
        let tail = Array(timed.prefix(timed.isEmpty ? 0 : Swift.max(1, (timed.count * 5 + 99) / 100))).map(\.0)
        rows = Self.phases.compactMap { phase in
            guard let histogram = cell.metrics.histograms[phase], histogram.count > 0 else { return nil }
            let values = tail.compactMap { $0.phases[phase.rawValue] }
            return Row(phase: phase, p50: Statistic.p50.value(of: histogram), p95: Statistic.p95.value(of: histogram),
                       p99: Statistic.p99.value(of: histogram), max: histogram.max,
                       tailMean: values.isEmpty ? nil : values.reduce(0, +) / Double(values.count))
        }
        guard !rows.isEmpty else { return nil }
        tailPeers = tail.count
        tailFromMs = timed.isEmpty ? nil : timed[tail.count - 1].1
    }

    public func row(_ phase: MetricName) -> Row? { rows.first { $0.phase == phase } }

    /// The stacked phase whose tail mean exceeds its median by the most, with that excess
    /// in milliseconds: what a person should look at first.
    public var dominantTailPhase: (phase: MetricName, excessMs: Double)? {
        Self.stacked.compactMap { phase -> (MetricName, Double)? in
            guard let row = row(phase), let median = row.p50, let tail = row.tailMean else { return nil }
            return (phase, tail - median)
        }.max { $0.1 < $1.1 }.map { (phase: $0.0, excessMs: $0.1) }
    }

    /// The sentence both reports print under the phases.
    public var tailSentence: String {
        var text = "Slowest 5 %: the \(tailPeers) peer(s) with the largest `setup_ms`"
            + (tailFromMs.map { " (from \(Format.number($0)) ms)" } ?? "") + ", each phase's mean over them (report.json `peers`)"
        if let dominant = dominantTailPhase {
            text += "; `\(dominant.phase.rawValue)` dominates the tail, \(Format.number(dominant.excessMs)) ms above its median"
        }
        return text + "."
    }
}
