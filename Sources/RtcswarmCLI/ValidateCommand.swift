import Scenario

/// `rtcswarm validate FILE`: checks a scenario without starting anything.
public enum ValidateCommand: Subcommand {
    public static let spec = CommandSpec(
        name: "validate",
        summary: "Check a scenario file: keys, types, values and combinations; nothing starts.",
        options: [
            .value("set", "PATH=VALUE", repeatable: true, "Override a field, e.g. --set groups[0].count=50."),
            .value("workers", "N", default: "1", "Workers to plan for (the plan summary only)."),
        ],
        positionals: [.init("SCENARIO", "The scenario file (JSON5).")],
        examples: ["rtcswarm validate Scenarios/quickstart.json5", "rtcswarm validate s.json5 --set groups[0].count=500"]
    )

    public static func run(_ arguments: ParsedArguments, console: Console) -> ExitCode {
        let path = arguments.positionals[0]
        let workers: Int
        do {
            workers = try arguments.int("workers", in: 1...256) ?? 1
        } catch {
            console.error(error.description)
            return .usage
        }
        do {
            let loaded = try ScenarioLoader.load(file: path, overrides: arguments.strings("set"))
            let plan = ExecutionPlan(scenario: loaded.scenario, workers: workers)
            let scenario = loaded.scenario
            let busiest = (plan.peers + plan.browserPeers).map(\.startMs).max() ?? 0
            let browsers = plan.browserPeers.isEmpty ? "" : " (\(plan.browserPeers.count) run by Chromium)"
            console.out("ok: \(path): \"\(scenario.name)\", \(scenario.groups.count) group(s), \(plan.peers.count + plan.browserPeers.count) peers\(browsers), "
                        + "last start at \(Double(busiest) / 1000) s, \(scenario.durationS) s, \((scenario.thresholds ?? []).count) threshold(s)")
            return .success
        } catch {
            console.error("error: \(error.description)")
            return .usage
        }
    }
}
