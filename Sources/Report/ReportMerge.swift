import Metrics

/// `rtcswarm report merge DIR...`: shards of one scenario run on several machines become
/// one report. Histograms merge exactly (percentiles are never averaged), peers and
/// workers are concatenated, thresholds are judged again on the merged figures; shards of
/// a `run --shard` are checked to be the whole run (ReportMerge+Shards).
public enum ReportMerge {
    public static func merge(_ shards: [RunReport]) throws -> RunReport {
        try merge(shards.enumerated().map { ("report \($0.offset + 1)", $0.element) })
    }

    /// - Parameter unreadable: folders given whose report could not be read (a shard that
    ///   wrote none): each makes the merged verdict fail, named with the reason.
    public static func merge(_ sources: [Source], unreadable: [(path: String, reason: String)] = []) throws -> RunReport {
        var check = try checkShards(sources)
        if !unreadable.isEmpty {
            check = check ?? ShardCheck(shards: [], problems: [])
            check?.problems += unreadable.map { "\($0.path): no report (\($0.reason))" }
        }
        let shards = sources.map(\.report).sorted { ($0.shard?.index ?? 0) < ($1.shard?.index ?? 0) }
        guard var merged = shards.first else { throw ReportError("report merge needs at least one report") }
        // A shard's abort is named with the shard among the problems, or, on a threshold
        // judged on its part alone, judged again below.
        func abortReason(_ report: RunReport) -> String? { check == nil ? report.abortReason : nil }
        merged.abortReason = abortReason(merged)
        for shard in shards.dropFirst() {
            guard shard.scenarioName == merged.scenarioName else {
                throw ReportError("cannot merge \"\(shard.scenarioName)\" into \"\(merged.scenarioName)\": shards must come from one scenario")
            }
            merged.durationS = max(merged.durationS, shard.durationS)
            merged.interrupted = merged.interrupted || shard.interrupted
            merged.invalidReason = [merged.invalidReason, shard.invalidReason].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
            merged.abortReason = [merged.abortReason, abortReason(shard)].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
            merged.workers += shard.workers.map { worker in
                var renumbered = worker
                renumbered.index += merged.workers.count
                return renumbered
            }
            for cell in shard.cells {
                if let index = merged.cells.firstIndex(where: { $0.label == cell.label }) {
                    merged.cells[index] = combine(merged.cells[index], cell)
                } else {
                    merged.cells.append(cell)
                }
            }
        }
        merged.cells = try merged.cells.map(rejudge)
        if let check {
            merged.shard = nil
            merged.mergedShards = check.shards.isEmpty ? nil : check.shards
            merged.shardProblems = check.problems.isEmpty ? nil : check.problems
            merged.startedAt = shards.map(\.startedAt).min() ?? merged.startedAt
            if merged.abortReason == nil, let abort = merged.cells.flatMap(\.thresholds).first(where: { !$0.passed && $0.abortOnFail }) {
                merged.abortReason = "threshold \(abort.expr) failed with abort_on_fail"
            }
        }
        return merged
    }

    static func combine(_ a: CellReport, _ b: CellReport) -> CellReport {
        var result = a
        result.metrics.merge(b.metrics)
        result.peers += b.peers
        var byTime: [Double: TimeSample] = [:]
        for sample in a.timeSeries + b.timeSeries {
            let key = sample.tS.rounded()
            if let existing = byTime[key] {
                byTime[key] = existing.adding(sample)
            } else {
                var aligned = sample
                aligned.tS = key
                byTime[key] = aligned
            }
        }
        result.timeSeries = byTime.values.sorted { $0.tS < $1.tS }
        if result.serverSamples.isEmpty { result.serverSamples = b.serverSamples }
        if a.rooms != nil || b.rooms != nil {
            let shards = (a.rooms ?? []) + (b.rooms ?? [])
            let relayed = shards.allSatisfy { $0.relayed != nil }
                ? Dictionary(shards.map { ($0.room, $0.relayed ?? 0) }, uniquingKeysWith: +) : nil
            result.rooms = RoomMessageSummary.rooms(of: result.peers, relayedByRoom: relayed)
        }
        if a.actions != nil || b.actions != nil { result.actions = ActionRecord.merged(a.actions ?? [], b.actions ?? [], peers: result.peers) }
        if a.calibration != nil || b.calibration != nil { result.calibration = CalibrationRow.rows(result.peers) }
        return result
    }

    static func rejudge(_ cell: CellReport) throws -> CellReport {
        var result = cell
        result.thresholds = try cell.thresholds.map { outcome in
            let verdict: Threshold.Result
            do {
                verdict = try Threshold(parsing: outcome.expr).evaluate(cell.metrics)
            } catch {
                throw ReportError("threshold \"\(outcome.expr)\" in the reports cannot be parsed: \(error)")
            }
            var judged = outcome
            (judged.passed, judged.measured) = (verdict.passed, verdict.measured)
            return judged
        }
        return result
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
