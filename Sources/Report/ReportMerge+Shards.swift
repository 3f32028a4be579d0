/// The shards' side of `report merge`: reports from `run --shard I/N` must be the N parts
/// of one run. Mixing in something else is refused; a shard that is missing, or that did
/// not run to its end, makes the merged verdict fail with its name (the figures of the
/// shards that are there are still merged, so the reader sees what ran).
extension ReportMerge {
    /// A report and where it was read from, for messages.
    public typealias Source = (path: String, report: RunReport)

    struct ShardCheck {
        var shards: [ShardInfo]
        var problems: [String]
    }

    /// Nil when no report is a shard (a plain merge of runs).
    static func checkShards(_ sources: [Source]) throws -> ShardCheck? {
        let sharded = sources.filter { $0.report.shard != nil }
        guard let first = sharded.first, let count = first.report.shard?.count else { return nil }
        if let plain = sources.first(where: { $0.report.shard == nil }) {
            throw ReportError("\(plain.path) is a whole run but \(first.path) is \(first.report.shard?.name ?? ""): merge the shards of one sharded run only")
        }
        var byIndex: [Int: Source] = [:]
        for source in sources {
            guard let shard = source.report.shard else { continue }
            guard shard.count == count else {
                throw ReportError("\(source.path) is \(shard.name) but \(first.path) is \(first.report.shard?.name ?? ""): shards of one run share N")
            }
            guard source.report.resolvedScenario == first.report.resolvedScenario else {
                throw ReportError("\(source.path) (\(shard.name)) ran another scenario than \(first.path) (its resolved scenario differs): "
                                  + "every shard must run the same file with the same --set")
            }
            if let twice = byIndex[shard.index] {
                throw ReportError("\(shard.name) given twice: \(twice.path) and \(source.path)")
            }
            byIndex[shard.index] = source
        }
        var problems: [String] = []
        for index in 0..<count {
            guard let source = byIndex[index] else {
                problems.append("shard \(index)/\(count) missing")
                continue
            }
            if let failure = failure(of: source.report) { problems.append("shard \(index)/\(count) (\(source.path)) \(failure)") }
        }
        return ShardCheck(shards: byIndex.keys.sorted().compactMap { byIndex[$0]?.report.shard }, problems: problems)
    }

    /// Why a shard's run is not whole, or nil: a failed threshold is not one (thresholds
    /// are judged again on the merged figures).
    static func failure(of report: RunReport) -> String? {
        if report.interrupted { return "was interrupted before its planned end" }
        if let reason = report.abortReason, !reason.hasPrefix("threshold ") { return "could not run: \(reason)" }
        if let reason = report.invalidReason { return "saturated its harness: \(reason)" }
        return nil
    }
}
