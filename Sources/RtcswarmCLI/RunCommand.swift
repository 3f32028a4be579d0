import Foundation
import Report
import RTCBase
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
            .value("shard", "I/N", "Run only shard I of N (I from 0 to N-1) of the scenario's plan; see 'rtcswarm plan --shards N'. "
                   + "Also read from JOB_COMPLETION_INDEX with RTCSWARM_SHARDS=N (a Kubernetes Indexed Job)."),
            .value("start-at", "RFC3339", "Start the first peers at this wall-clock time (e.g. 2026-12-02T06:00:00Z), so every shard's "
                   + "timeline lines up. Also read from RTCSWARM_START_AT."),
            .value("metrics-listen", "ADDRESS:PORT", "Serve live OpenMetrics figures (peers by state, setup and phase histograms by group, "
                   + "packet, byte, NACK, PLI, frame and freeze counters, worker lag and CPU, the server's own figures) for Prometheus "
                   + "at http://ADDRESS:PORT/metrics while the run goes on, e.g. 127.0.0.1:9464 (default: the scenario's run.metrics_listen)."),
            .value("metrics-linger", "SECONDS", default: "0", "With --metrics-listen: after each cell, keep serving its final figures "
                   + "until one more scrape has read them, at most this long."),
        ],
        positionals: [.init("SCENARIO", "The scenario file (JSON5); see docs/scenarios.md.")],
        examples: ["rtcswarm run Scenarios/rooms-stress.json5", "rtcswarm run s.json5 --set duration_s=10 --out /tmp/r",
                   "rtcswarm run s.json5 --shard 1/4 --start-at 2026-12-02T06:00:00Z --out /reports/shard-1"]
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
        let shard: Shard?, startAt: Date?
        do {
            (shard, startAt) = try ShardArguments.parse(arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            console.error("error: \(error)")
            return .usage
        }
        var metricsListen: SocketAddress?
        if let text = arguments.string("metrics-listen") ?? loaded.scenario.run?.metricsListen {
            guard let address = SocketAddress(text) else {
                console.error(UsageError("--metrics-listen \(text): expected ADDRESS:PORT such as 127.0.0.1:9464", hint: "see 'rtcswarm run --help'").description)
                return .usage
            }
            metricsListen = address
        }
        let metricsLinger: Double
        do {
            metricsLinger = try arguments.double("metrics-linger", in: 0...3600) ?? 0
        } catch {
            console.error(error.description)
            return .usage
        }
        let folder: ReportFolder
        do {
            folder = try ReportFolder(name: loaded.scenario.name + (shard.map { "-shard\($0.index)of\($0.count)" } ?? ""),
                                      out: arguments.string("out"))
        } catch {
            console.error("error: \(error)")
            return .couldNotRun
        }
        var lastPlain = Date.distantPast
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let runner = ScenarioRunner(loaded: loaded, options: .init(folder: folder.url, version: Rtcswarm.version, workers: workers,
                                                                   workerExecutable: executable, shard: shard, startAt: startAt,
                                                                   metricsListen: metricsListen, metricsLingerS: metricsLinger) { line in
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
