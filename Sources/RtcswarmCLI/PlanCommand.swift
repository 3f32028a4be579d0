import Scenario

/// `rtcswarm plan FILE --shards N`: who runs where, before anything starts. Each shard's
/// part of the plan (ExecutionPlan+Shards) in one row, or every peer with `--peers`.
public enum PlanCommand: Subcommand {
    public static let spec = CommandSpec(
        name: "plan",
        summary: "Print the execution plan: each shard's peers, rooms, streams and arrivals (--peers: every peer, its shard and worker).",
        options: [
            .value("set", "PATH=VALUE", repeatable: true, "Override a field, e.g. --set groups[0].count=50."),
            .value("shards", "N", default: "1", "Shards to cut the plan into (as 'run --shard I/N' runs them)."),
            .value("workers", "N", default: "1", "Worker processes per shard."),
            .flag("peers", "List every peer: shard, worker, id, start and stop, room or stream."),
        ],
        positionals: [.init("SCENARIO", "The scenario file (JSON5).")],
        examples: ["rtcswarm plan Scenarios/bench-spawn-storm.json5 --shards 4", "rtcswarm plan s.json5 --shards 2 --workers 2 --peers"]
    )

    public static func run(_ arguments: ParsedArguments, console: Console) -> ExitCode {
        let shards: Int, workers: Int, loaded: LoadedScenario
        do {
            shards = try arguments.int("shards", in: 1...Shard.maxCount) ?? 1
            workers = try arguments.int("workers", in: 1...256) ?? 1
            loaded = try ScenarioLoader.load(file: arguments.positionals[0], overrides: arguments.strings("set"))
        } catch let error as UsageError {
            console.error(error.description)
            return .usage
        } catch {
            console.error("error: \(error)")
            return .usage
        }
        let plans = (0..<shards).map { index in
            ExecutionPlan(scenario: loaded.scenario, workers: workers,
                          shard: (try? Shard(index: index, count: shards, source: "--shards")) ?? .whole)
        }
        let total = plans.reduce(0) { $0 + $1.peers.count }, browsers = plans.reduce(0) { $0 + $1.browserPeers.count }
        console.out("\"\(loaded.scenario.name)\": \(total) peers in \(shards) shard(s) of \(workers) worker(s)"
                    + (browsers > 0 ? " and \(browsers) in Chromium" : "") + ", \(loaded.scenario.durationS) s")
        if arguments.flag("peers") {
            console.out("shard  worker  peer                start_s  stop_s  room/stream")
            for plan in plans {
                for (peer, runner) in plan.peers.map({ ($0, String($0.worker)) }) + plan.browserPeers.map({ ($0, "chromium") }) {
                    console.out([plan.shard.description.padded(7), runner.padded(8), peer.id.padded(20),
                                 seconds(peer.startMs).padded(9), seconds(peer.stopMs).padded(8), peer.room ?? peer.stream ?? "-"].joined())
                }
            }
            return .success
        }
        console.out("shard  peers  rooms  streams  first_start_s  last_start_s  peak_live  per_worker")
        for plan in plans {
            let starts = plan.peers.map(\.startMs)
            let perWorker = (0..<workers).map { worker in String(plan.peers.filter { $0.worker == worker }.count) }
            console.out([plan.shard.description.padded(7), String(plan.peers.count).padded(7),
                         String(Set(plan.peers.compactMap(\.room)).count).padded(7), String(Set(plan.peers.compactMap(\.stream)).count).padded(9),
                         (starts.min().map(seconds) ?? "-").padded(15), (starts.max().map(seconds) ?? "-").padded(14),
                         String(plan.peakLive).padded(11), perWorker.joined(separator: "/")].joined())
        }
        if plans.contains(where: \.peers.isEmpty) {
            console.out("note: some shards have no peers: the scenario has fewer calls, rooms or streams than shards")
        }
        return .success
    }

    private static func seconds(_ ms: Int64) -> String { String(format: "%.3f", Double(ms) / 1000) }
}

extension ExecutionPlan {
    /// The most peers alive at once (a peer stopping at the instant another starts is not counted twice).
    var peakLive: Int {
        let events = peers.flatMap { [($0.startMs, 1), ($0.stopMs, -1)] }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        var live = 0, peak = 0
        for (_, change) in events {
            live += change
            peak = max(peak, live)
        }
        return peak
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
