import Metrics

/// The verdict's floor (README, "Exit codes"): besides its own thresholds every cell is
/// judged on two rules a scenario only replaces by stating its own rule for that figure.
/// A failed peer fails the run (`failed_peers == 0`) unless a threshold names
/// `failed_peers` (say, `failed_peers < 10` to allow some); a run in which no peer
/// connected, because none ran or every one failed, fails (`connected_peers > 0`) unless a
/// threshold names `connected_peers`.
public struct JudgedThreshold: Equatable, Sendable {
    public var spec: ThresholdSpec
    /// Added by the floor, not written in the scenario.
    public var implied: Bool
}

extension Scenario {
    static let impliedThresholds: [(MetricName, String)] = [(.failedPeers, "failed_peers == 0"), (.connectedPeers, "connected_peers > 0")]

    /// The scenario's thresholds, then the implied ones for the figures none of them names.
    public var judgedThresholds: [JudgedThreshold] {
        let own = thresholds ?? []
        let named = Set(own.compactMap { try? Threshold(parsing: $0.expr).address.name })
        return own.map { JudgedThreshold(spec: $0, implied: false) }
            + Self.impliedThresholds.filter { !named.contains($0.0) }.map { JudgedThreshold(spec: ThresholdSpec(expr: $0.1), implied: true) }
    }
}
