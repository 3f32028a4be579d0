import Metrics

/// `rtcswarm report compare OLD NEW`: the figures that moved, and which moved the wrong
/// way by more than the tolerance: a regression gate against a stored baseline.
public struct ReportComparison: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var cell: String
        public var figure: String
        public var old: Double
        public var new: Double
        /// Relative change in percent (nil when the old value is 0).
        public var changePct: Double?
        public var regression: Bool
    }

    public let rows: [Row]
    public let tolerancePct: Double
    /// Cells present in only one of the two reports.
    public let unmatchedCells: [String]
    public var regressions: [Row] { rows.filter(\.regression) }

    /// Compares every summary figure of every cell present in both reports. A change is a
    /// regression when it goes the bad way by more than `tolerancePct` percent and by more
    /// than the figure's noise floor (5 ms, half a percentage point, one frame per second...).
    public init(old: RunReport, new: RunReport, tolerancePct: Double = 10) {
        var rows: [Row] = []
        for newCell in new.cells {
            guard let oldCell = old.cells.first(where: { $0.label == newCell.label }) else { continue }
            for address in SummaryRows.addresses {
                guard let before = oldCell.metrics.value(at: address), let after = newCell.metrics.value(at: address) else { continue }
                let change = before == 0 ? nil : (after - before) / abs(before) * 100
                let worse = Self.higherIsWorse(address.name) ? after - before : before - after
                let relativeWorse = before == 0 ? worse > 0 : worse / abs(before) * 100 > tolerancePct
                let regression = worse > Self.noiseFloor(address.name) && relativeWorse
                rows.append(Row(cell: newCell.label, figure: address.description, old: before, new: after, changePct: change,
                                regression: regression))
            }
        }
        self.rows = rows
        self.tolerancePct = tolerancePct
        let oldLabels = Set(old.cells.map(\.label)), newLabels = Set(new.cells.map(\.label))
        unmatchedCells = oldLabels.symmetricDifference(newLabels).sorted()
    }

    /// Why two reports cannot be compared, or nil when they can: a run that was interrupted,
    /// aborted or invalid is never a baseline match (on either side, its figures cover less
    /// than the scenario or say nothing about the server), and runs of different scenarios
    /// are only compared when asked (`allowDifferent`).
    public static func refusal(old: RunReport, new: RunReport, allowDifferent: Bool = false) -> String? {
        for (side, report) in [("NEW", new), ("OLD", old)] {
            if report.interrupted { return "\(side) was interrupted before its planned end, so its figures cover part of the run" }
            if let reason = report.abortReason { return "\(side) was aborted (\(reason)), so its figures cover part of the run" }
            if let reason = report.invalidReason { return "\(side) is invalid: the harness saturated (\(reason)), so its figures say nothing about the target" }
        }
        if !allowDifferent && old.scenarioName != new.scenarioName {
            return "OLD ran scenario \"\(old.scenarioName)\" and NEW ran \"\(new.scenarioName)\"; compare runs of one scenario, "
                + "or pass --allow-different"
        }
        return nil
    }

    static func higherIsWorse(_ name: MetricName) -> Bool {
        switch name {
        case .fps, .resolutionSurvival, .psnrDb, .ssim, .ssimP5, .connectedPeers: return false
        default: return true
        }
    }

    static func noiseFloor(_ name: MetricName) -> Double {
        switch name {
        case .videoLossPct, .audioLossPct, .videoResidualLossPct, .audioResidualLossPct, .videoFrameLossPct, .resolutionSurvival, .cpuPct: return 0.5
        case .fps, .psnrDb, .rssMb: return 1
        case .ssim, .ssimP5: return 0.01
        case .messagesLost, .messagesDuplicated, .notificationsLost: return 0.5
        // How much the members said, not how well it went: a longer or larger run sends more.
        case .messagesSent, .messagesRelayed, .messagesReceived, .notificationsExpected, .notificationsReceived: return .infinity
        case .videoBurstMax, .audioBurstMax, .videoLossEpisodes, .audioLossEpisodes, .freezeCount, .harnessFreezeCount, .framesUnknownSize, .nacks, .plis, .failedPeers, .connectedPeers, .socketDrops: return 0.5
        default: return 5
        }
    }

    /// The comparison as Markdown, regressions first.
    public var markdown: String {
        var lines = ["# rtcswarm report compare", ""]
        lines.append(regressions.isEmpty ? "**No regressions.**" : "**\(regressions.count) regression(s).**")
        lines.append("")
        if !unmatchedCells.isEmpty { lines += ["Cells in only one report: \(unmatchedCells.joined(separator: ", "))", ""] }
        lines.append("| cell | figure | old | new | change | |")
        lines.append("|---|---|---|---|---|---|")
        for row in rows.sorted(by: { $0.regression && !$1.regression }) where row.old != row.new || row.regression {
            lines.append("| \(row.cell) | `\(row.figure)` | \(Format.number(row.old)) | \(Format.number(row.new)) | \(row.changeText) | \(row.regression ? "**REGRESSION**" : "") |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
