extension MetricName {
    /// Every value the figure can take: none is negative (times, counts, shares), and
    /// the shares of packets, frames or time are at most 100 %. (`cpu_pct` is left open:
    /// a process may use more than one core.) SSIM is at most 1 and, for pictures that
    /// are each other's negative, as low as -1.
    public var possibleValues: ClosedRange<Double> {
        switch self {
        case .videoLossPct, .audioLossPct, .videoResidualLossPct, .audioResidualLossPct, .videoFrameLossPct, .resolutionSurvival, .audioMarkerHitPct, .dcLossPct: 0...100
        case .ssim, .ssimP5: -1...1
        default: 0...Double.greatestFiniteMagnitude
        }
    }
}

extension Threshold {
    /// False when no value the figure can take passes (`setup_ms.p95 < -1`,
    /// `loss_pct.max > 100`): such a threshold fails every run, so it is a mistake in the
    /// scenario rather than a finding.
    public var canHold: Bool {
        let range = address.name.possibleValues
        switch comparison {
        case .less: return range.lowerBound < limit
        case .lessOrEqual: return range.lowerBound <= limit
        case .greater: return range.upperBound > limit
        case .greaterOrEqual: return range.upperBound >= limit
        case .equal: return range.contains(limit)
        case .notEqual: return true
        }
    }
}
