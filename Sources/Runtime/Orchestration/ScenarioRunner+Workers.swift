import EventLoop
import RTCBase
import Scenario

extension ScenarioRunner {
    /// The cell's workers: one session in this process, or `rtcswarm worker` children whose
    /// messages go to `collector` (a child that ends without its result is a lost worker).
    func startWorkers(cell index: Int, plan: ExecutionPlan, scenario: Scenario, target: ResolvedTarget, loop: EventLoop,
                      runStart: Instant, collector: CellCollector)
        -> Result<(inProcess: WorkerSession?, children: [WorkerProcess]), TargetError> {
        let workers = collector.workers
        do {
            if workers == 1 {
                let session = try WorkerSession(index: 0, loop: loop, scenario: scenario, plan: plan, target: target, runStart: runStart)
                session.onMessage = { collector.receive($0, from: 0) }
                session.begin()
                return .success((session, []))
            }
            guard let executable = options.workerExecutable else {
                return .failure(TargetError("\(workers) workers need the rtcswarm executable to start them"))
            }
            // Builds the drivers once here, so a role this build cannot play fails before any child starts.
            _ = try WorkerSession(index: 0, loop: loop, scenario: scenario, plan: plan, target: target, runStart: runStart)
            var children: [WorkerProcess] = []
            for worker in 0..<workers {
                let child = try WorkerProcess(index: worker, executable: executable, arguments: [
                    "worker", "--scenario", options.folder.appendingPathComponent(Self.resolvedScenarioFile).path,
                    "--cell", String(index), "--worker", String(worker), "--workers", String(workers),
                    "--target", target.endpoint.description, "--start", String(runStart.nanoseconds),
                    "--shard", (options.shard ?? .whole).description,
                ], loop: loop)
                child.onMessage = { collector.receive($0, from: worker) }
                child.onEnd = { [unowned child] in
                    collector.ended.insert(worker)
                    if collector.results[worker] == nil { collector.workerLost(worker, child.endDescription(), now: loop.now()) }
                }
                children.append(child)
            }
            return .success((nil, children))
        } catch let error as TargetError {
            return .failure(error)
        } catch {
            return .failure(TargetError("cannot start worker processes: \(error)"))
        }
    }
}
