/// `summary.md`: the table a person pastes into a pull request. Matrix cells stand side
/// by side, one column each.
public enum MarkdownSummary {
    public static func render(_ report: RunReport) -> String {
        var lines = ["# \(report.scenarioName)", ""]
        lines.append("rtcswarm \(report.rtcswarmVersion), started \(report.startedAt), \(Format.number(report.durationS)) s, seed \(report.seed)"
                     + (report.targetVersion.map { ", target \($0)" } ?? "") + (report.iceProfile.map { ", ICE profile \($0)" } ?? ""))
        for line in ShardSummary.lines(report) { lines += ["", line] }
        lines.append("")
        lines.append("**\(verdict(report))**")
        lines.append("")
        for warning in report.warnings ?? [] { lines += ["Warning: \(warning)", ""] }
        let rows = SummaryRows.rows(for: report.cells)
        if !rows.isEmpty {
            lines.append("| figure | " + report.cells.map(\.label).joined(separator: " | ") + " |")
            lines.append("|---|" + String(repeating: "---|", count: report.cells.count))
            for (address, values) in rows {
                lines.append("| `\(address)` | " + values.map { Format.number($0) }.joined(separator: " | ") + " |")
            }
            lines.append("")
        }
        for cell in report.cells {
            if let phases = PhaseBreakdown(cell) { lines += phases.markdown(cell: report.cells.count > 1 ? cell.label : "") }
        }
        for cell in report.cells {
            lines += CalibrationRow.markdown(cell.calibration ?? [], cell: report.cells.count > 1 ? cell.label : "")
        }
        lines += ResolutionCounts(report.cells).markdown
        for cell in report.cells {
            lines += ActionRecord.markdown(cell.actions ?? [], cell: report.cells.count > 1 ? cell.label : "")
        }
        for cell in report.cells {
            lines += RoomMessageSummary.markdown(cell.rooms ?? [], cell: report.cells.count > 1 ? cell.label : "")
        }
        let thresholds = report.cells.flatMap { cell in cell.thresholds.map { (cell.label, $0) } }
        if !thresholds.isEmpty {
            lines.append("| threshold | cell | measured | result |")
            lines.append("|---|---|---|---|")
            for (label, outcome) in thresholds {
                lines.append("| `\(outcome.expr)`\(outcome.implied == true ? " (implied)" : "") | \(label) | \(Format.number(outcome.measured)) | \(outcome.passed ? "pass" : "**FAIL**") |")
            }
            lines.append("")
        }
        lines += workers(report)
        let failed = report.cells.flatMap(\.peers).filter { $0.outcome == .failed }
        if !failed.isEmpty {
            lines.append("Failed peers: \(failed.count). First reasons:")
            lines.append("")
            for peer in failed.prefix(10) {
                lines.append("- \(peer.id) (\(peer.role))\(peer.failedPhase.map { " in \($0)" } ?? "") at \(Format.number(peer.endedAtMs / 1000)) s: \(peer.failureReason ?? "no reason recorded")")
            }
            lines.append("")
        }
        lines += worstPeers(report)
        return lines.joined(separator: "\n")
    }

    /// The ten worst peers by `PeerRanking`'s rule, the rule stated (report.html lists more).
    static func worstPeers(_ report: RunReport) -> [String] {
        let ranked = PeerRanking.worst(report.cells, limit: 10)
        guard !ranked.isEmpty else { return [] }
        var lines = ["Worst peers, \(PeerRanking.rule):", "", "| rank | peer | outcome | frame loss % | freeze ms | setup ms | failure |",
                     "|---|---|---|---|---|---|---|"]
        for (rank, entry) in ranked.enumerated() {
            let key = PeerRanking.Key(entry.peer)
            let hasVideo = entry.peer.streams.contains { $0.kind == "video" }
            lines.append("| \(rank + 1) | \(entry.peer.id) | \(entry.peer.outcome.rawValue) | \(hasVideo ? Format.number(key.frameLossPct) : "-") | "
                         + "\(hasVideo ? Format.number(key.freezeMs) : "-") | \(Format.number(entry.peer.phases["setup_ms"])) | \(InteropMatrixMarkdown.escape(entry.peer.failureReason ?? "")) |")
        }
        return lines + [""]
    }

    /// What each worker process spent: the harness's own cost, per peer and per packet
    /// (beyond the encoders, which run once per track whatever the number of peers).
    static func workers(_ report: RunReport) -> [String] {
        guard !report.workers.isEmpty else { return [] }
        var lines = ["| worker | peers | CPU % | encoders CPU % | CPU ms per peer-s | CPU us per packet | RSS MB | lag p99 ms |",
                     "|---|---|---|---|---|---|---|---|"]
        func optional(_ value: Double?) -> String { value.map { Format.number($0) } ?? "" }
        for worker in report.workers {
            lines.append("| \(worker.index) | \(worker.peers) | \(Format.number(worker.cpuPct)) | \(optional(worker.encoderCpuPct)) | "
                         + "\(optional(worker.cpuMsPerPeerSecond)) | \(optional(worker.cpuUsPerPacket)) | \(Format.number(worker.rssMB)) | "
                         + "\(Format.number(worker.lagP99Ms)) |")
        }
        if let coordinator = report.coordinator {
            lines.append("| coordinator | | \(Format.number(coordinator.cpuPct)) | | | | \(Format.number(coordinator.rssMB)) | |")
        }
        return lines + [""]
    }

    static func verdict(_ report: RunReport) -> String {
        if let reason = report.invalidReason { return "INVALID: harness saturated (\(reason)); the figures say nothing about the server" }
        if report.interrupted { return "INTERRUPTED: the report covers what ran" }
        if let reason = report.abortReason { return "ABORTED: \(reason)" }
        if let problems = report.shardProblems { return "FAILED: " + problems.joined(separator: "; ") }
        let failures = report.cells.flatMap(\.thresholds).filter { !$0.passed }.count
        return failures == 0 ? "PASSED" : "FAILED: \(failures) threshold(s)"
    }
}
