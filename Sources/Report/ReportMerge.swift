import Metrics

/// `rtcswarm report merge DIR...`: shards of one scenario run on several machines become
/// one report. Histograms merge exactly (percentiles are never averaged), peers and
/// workers are concatenated, thresholds are judged again on the merged figures.
public enum ReportMerge {
    public static func merge(_ shards: [RunReport]) throws -> RunReport {
        guard var merged = shards.first else { throw ReportError("report merge needs at least one report") }
        for shard in shards.dropFirst() {
            guard shard.scenarioName == merged.scenarioName else {
                throw ReportError("cannot merge \"\(shard.scenarioName)\" into \"\(merged.scenarioName)\": shards must come from one scenario")
            }
            merged.durationS = max(merged.durationS, shard.durationS)
            merged.interrupted = merged.interrupted || shard.interrupted
            merged.invalidReason = [merged.invalidReason, shard.invalidReason].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
            merged.abortReason = [merged.abortReason, shard.abortReason].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
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
        return merged
    }

    static func combine(_ a: CellReport, _ b: CellReport) -> CellReport {
        var result = a
        result.metrics.merge(b.metrics)
        result.peers += b.peers
        var byTime: [Double: TimeSample] = [:]
        for sample in a.timeSeries + b.timeSeries {
            let key = sample.tS.rounded()
            if var existing = byTime[key] {
                existing.connectingPeers += sample.connectingPeers
                existing.connectedPeers += sample.connectedPeers
                existing.failedPeers += sample.failedPeers
                existing.receiveKbps += sample.receiveKbps
                existing.sendKbps += sample.sendKbps
                existing.lagP99Ms = max(existing.lagP99Ms, sample.lagP99Ms)
                existing.cpuPct = [existing.cpuPct, sample.cpuPct].compactMap { $0 }.max()
                byTime[key] = existing
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
