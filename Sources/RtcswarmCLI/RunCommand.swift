import Foundation
import Report
import Runtime
import Scenario

/// `rtcswarm run SCENARIO`: the main job.
public enum RunCommand: Subcommand {
    public static let spec = CommandSpec(
        name: "run",
        summary: "Run a scenario and write its report (report.json, junit.xml, summary.md, report.html, peers.ndjson).",
        options: [
            .value("set", "PATH=VALUE", repeatable: true, "Override a field of the scenario, e.g. --set groups[0].count=50."),
            .value("out", "DIR", "Report folder (default: Reports/<scenario>-<UTC timestamp>)."),
            .value("workers", "N", "Worker processes (default: the scenario's run.workers, else one per core)."),
        ],
        positionals: [.init("SCENARIO", "The scenario file (JSON5); see docs/scenarios.md.")],
        examples: ["rtcswarm run Scenarios/rooms-stress.json5", "rtcswarm run s.json5 --set duration_s=10 --out /tmp/r"]
    )

    public static func run(_ arguments: ParsedArguments, console: Console) -> ExitCode {
        let loaded: LoadedScenario
        do {
            loaded = try ScenarioLoader.load(file: arguments.positionals[0], overrides: arguments.strings("set"))
        } catch {
            console.error("error: \(error.description)")
            return .usage
        }
        let workers: Int
        do {
            workers = try arguments.int("workers", in: 1...256) ?? loaded.scenario.run?.workers ?? ProcessInfo.processInfo.activeProcessorCount
        } catch {
            console.error(error.description)
            return .usage
        }
        let folder: ReportFolder
        do {
            folder = try ReportFolder(name: loaded.scenario.name, out: arguments.string("out"))
        } catch {
            console.error("error: \(error)")
            return .couldNotRun
        }
        var lastPlain = Date.distantPast
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let runner = ScenarioRunner(loaded: loaded, options: .init(folder: folder.url, version: Rtcswarm.version, workers: workers,
                                                                   workerExecutable: executable) { line in
            if console.isTerminal {
                console.status(line)
            } else if Date().timeIntervalSince(lastPlain) >= 5 {
                lastPlain = Date()
                console.status(line)
            }
        })
        let (report, outcome) = runner.run()
        guard ReportPublisher.publish(report, to: folder.url, console: console) else { return .couldNotRun }
        switch outcome {
        case .passed:
            console.out(folder.url.path)
            return .success
        case .thresholdsFailed:
            console.out(folder.url.path)
            return .thresholdFailed
        case .harnessSaturated:
            console.out(folder.url.path)
            return .harnessSaturated
        case .interrupted:
            console.out(folder.url.path)
            return .interrupted
        case .couldNotRun(let reason):
            console.error("error: could not run: \(reason)")
            console.out(folder.url.path)
            return .couldNotRun
        }
    }
}
