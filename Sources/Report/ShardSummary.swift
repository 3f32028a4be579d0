/// The line summary.md and report.html give a sharded run: which shard, or which shards a
/// merge holds, and how exact figures across machines can be.
enum ShardSummary {
    static func lines(_ report: RunReport) -> [String] {
        (report.shard.map { [line($0)] } ?? []) + (report.mergedShards.map { [line(merged: $0)] } ?? [])
    }

    static func line(_ shard: ShardInfo) -> String {
        "This report is \(shard.name) of a sharded run" + (shard.startAt.map { ", started at \($0)" } ?? "") + "; " + clock(shard)
    }

    static func line(merged shards: [ShardInfo]) -> String {
        let count = shards.first?.count ?? 0
        let errors = shards.compactMap(\.clockErrorMs)
        let clocks = errors.count == shards.count && !errors.isEmpty
            ? "the shards' clocks were within ±\(Format.number(errors.max() ?? 0)) ms of true time (adjtimex), so figures across "
                + "shards are exact to about \(Format.number(2 * (errors.max() ?? 0))) ms"
            : "some shards' clock error is unknown, so only figures measured within one shard (setup, loss, one-clock latency) are exact"
        return "Merged from \(shards.count) of \(count) shards (\(shards.map { String($0.index) }.joined(separator: ", "))); \(clocks)."
    }

    private static func clock(_ shard: ShardInfo) -> String {
        shard.clockErrorMs.map { "clock within ±\(Format.number($0)) ms (\(shard.clockSource))." } ?? "clock error unknown (\(shard.clockSource))."
    }
}
