import EventLoop
import Foundation
import RTCBase
import Runtime
import Scenario

/// `rtcswarm worker`: one worker process of a run, started by `rtcswarm run --workers N`.
/// It writes one JSON message per line on standard output for the coordinator.
public enum WorkerCommand: Subcommand {
    public static let spec = CommandSpec(
        name: "worker",
        summary: "Internal: one worker process of a run (started by 'rtcswarm run' with several workers).",
        options: [
            .value("scenario", "FILE", "The resolved scenario the coordinator wrote."),
            .value("cell", "K", default: "0", "Matrix cell index."),
            .value("worker", "I", default: "0", "This worker's index."),
            .value("workers", "N", default: "1", "How many workers share the plan."),
            .value("target", "URL", "The target the coordinator resolved (the built-in server's address)."),
            .value("start", "NANOSECONDS", "The run's start on CLOCK_MONOTONIC, shared by every process."),
            .value("shard", "I/N", default: "0/1", "The shard whose part of the plan the workers share."),
        ]
    )

    public static func run(_ arguments: ParsedArguments, console: Console) -> ExitCode {
        do {
            guard let file = arguments.string("scenario"), let url = arguments.string("target"),
                  let start = arguments.string("start").flatMap(Int64.init) else {
                throw UsageError("worker needs --scenario, --target and --start", hint: "it is started by 'rtcswarm run'")
            }
            let cellIndex = try arguments.int("cell", in: 0...100_000) ?? 0
            let index = try arguments.int("worker", in: 0...255) ?? 0
            let workers = try arguments.int("workers", in: 1...256) ?? 1
            let shard = try Shard(parsing: arguments.string("shard") ?? "0/1")
            let loaded = try ScenarioLoader.load(file: file, environment: [:])
            let cells = loaded.scenario.matrixCells
            guard cells.indices.contains(cellIndex) else { throw UsageError("--cell \(cellIndex): the scenario has \(cells.count)", hint: "") }
            let scenario = cells[cellIndex].scenario
            let loop = try EventLoop()
            let interrupts = try InterruptWatcher(loop: loop)
            let session = try WorkerSession(index: index, loop: loop, scenario: scenario,
                                            plan: ExecutionPlan(scenario: scenario, workers: workers, shard: shard),
                                            target: TargetResolver.resolve(url), runStart: Instant(nanoseconds: start))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            session.onMessage = { message in
                if let line = try? encoder.encode(message) { console.out(String(decoding: line, as: UTF8.self)) }
            }
            interrupts.onSignal = { _ in session.interrupt() }
            session.begin()
            loop.run(until: { session.isDone }, timeout: .seconds(7 * 86_400))
            return .success
        } catch let error as UsageError {
            console.error(error.description)
            return .usage
        } catch let error as ShardError {
            console.error("error: \(error)")
            return .usage
        } catch {
            console.error("worker: \(error)")
            return .couldNotRun
        }
    }
}
