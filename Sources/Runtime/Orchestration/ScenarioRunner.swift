import EventLoop
import Foundation
import Metrics
import Net
import Report
import RoomServer
import RTCBase
import Scenario
import Signaling

/// Runs a scenario: each matrix cell in turn on an event loop, the built-in room server
/// started in-process when the target is `builtin-room`, peers started and stopped as the
/// plan says, a sample every second, `peers.ndjson` written as peers end, and at the end
/// a `RunReport`. SIGINT/SIGTERM stop spawning, close peers politely and still report.
public final class ScenarioRunner {
    /// Where children find the resolved scenario.
    static let resolvedScenarioFile = "scenario.resolved.json"

    public let loaded: LoadedScenario
    public let options: Options
    var interrupted = false
    var warnings: [String] = []
    /// The target's name and version as it told them ("SRS 7.0.18").
    var targetVersion: String?

    public init(loaded: LoadedScenario, options: Options) {
        self.loaded = loaded
        self.options = options
    }

    /// Runs every cell; the report is complete even when the run was interrupted.
    public func run() -> (report: RunReport, outcome: Outcome) {
        let scenario = loaded.scenario
        let startedAt = ISO8601DateFormatter().string(from: Date())
        var report = RunReport(rtcswarmVersion: options.version, scenarioName: scenario.name,
                               resolvedScenario: loaded.resolved.serialized, seed: scenario.effectiveSeed,
                               startedAt: startedAt, durationS: 0, cells: [], workers: [])
        let peerLog: PeerLog
        do {
            peerLog = try PeerLog(folder: options.folder)
        } catch {
            return (report, .couldNotRun("cannot write \(options.folder.path)/peers.ndjson: \(error.localizedDescription)"))
        }
        let cells = scenario.matrixCells
        if options.workers > 1 {
            do {
                try Data(loaded.resolved.serialized.utf8).write(to: options.folder.appendingPathComponent(Self.resolvedScenarioFile))
            } catch {
                return (report, .couldNotRun("cannot write the scenario for the workers: \(error.localizedDescription)"))
            }
        }
        let wallStart = MonotonicClock.now()
        let cpuStart = ProcessCPU.seconds()
        var lostWorkers: String?
        for (index, cell) in cells.enumerated() where !interrupted && lostWorkers == nil {
            switch runCell(cell, index: index, of: cells.count, peerLog: peerLog) {
            case .success(let (cellReport, workers, lost)):
                report.cells.append(cellReport)
                report.workers.append(contentsOf: workers)
                // The cell's report is whole, but a run that lost a worker process is no verdict.
                lostWorkers = lost
                report.abortReason = lost
            case .failure(let error):
                report.abortReason = error.description
                report.durationS = (MonotonicClock.now() - wallStart).milliseconds / 1000
                return (report, .couldNotRun(error.description))
            }
        }
        report.durationS = (MonotonicClock.now() - wallStart).milliseconds / 1000
        if options.workers > 1 {
            report.coordinator = CoordinatorReport(cpuPct: (ProcessCPU.seconds() - cpuStart) / max(1e-3, report.durationS) * 100,
                                                   rssMB: ProcessCPU.maxResidentMegabytes())
        }
        report.interrupted = interrupted
        report.warnings = warnings.isEmpty ? nil : warnings
        report.targetVersion = targetVersion ?? (scenario.target.kind == .builtinRoom ? "rtcswarm \(options.version) built-in room server" : nil)
        report.iceProfile = Self.iceProfiles(scenario)
        report.shard = shardInfo
        report.invalidReason = HarnessVerdict.invalidReason(workers: report.workers,
                                                            streams: report.cells.flatMap(\.peers).flatMap(\.streams))
        if report.abortReason == nil, let abort = report.cells.flatMap(\.thresholds).first(where: { !$0.passed && $0.abortOnFail }) {
            report.abortReason = "threshold \(abort.expr) failed with abort_on_fail"
        }
        let outcome: Outcome
        if interrupted {
            outcome = .interrupted
        } else if let lostWorkers {
            outcome = .couldNotRun(lostWorkers)
        } else if report.invalidReason != nil {
            outcome = .harnessSaturated
        } else {
            outcome = report.cells.allSatisfy({ $0.thresholds.allSatisfy(\.passed) }) && report.abortReason == nil ? .passed : .thresholdsFailed
        }
        return (report, outcome)
    }

    /// Runs one cell: the target on this loop, the peers in one in-process worker or in
    /// `rtcswarm worker` children, their messages gathered into the cell's report. A child
    /// that ends without its result is noticed when its output ends: its peers that sent no
    /// record are recorded as failed with the reason, which also comes back (`lost`).
    private func runCell(_ cell: MatrixCell, index: Int, of total: Int, peerLog: PeerLog)
        -> Result<(cell: CellReport, workers: [WorkerReport], lost: String?), TargetError> {
        let scenario = Self.namedApart(cell.scenario, cell: index, of: total)
        let loop: EventLoop
        let interrupts: InterruptWatcher
        do {
            loop = try EventLoop()
            interrupts = try InterruptWatcher(loop: loop)
        } catch {
            return .failure(TargetError("cannot start the event loop: \(error)"))
        }
        let (target, server): (ResolvedTarget, RoomServerStream?)
        switch startTarget(scenario.target, loop: loop) {
        case .success(let started): (target, server) = started
        case .failure(let error): return .failure(error)
        }
        let workers = max(1, options.workers)
        let plan = ExecutionPlan(scenario: scenario, workers: workers, shard: options.shard ?? .whole)
        let prefix = total > 1 ? "c\(index)-" : ""
        let browsers: [ChromiumPartner]
        do {
            browsers = try startBrowsers(scenario: scenario, plan: plan, target: target, folder: options.folder, cellPrefix: prefix)
        } catch {
            server?.shutdown()
            return .failure(error)
        }
        defer { browsers.forEach { $0.stop() } }
        // Children need a moment to start before the first peer is due; shards wait for their common start.
        let (startDelay, lateStart) = startDelay(cell: index, workers: workers)
        if let lateStart {
            warnings.append(lateStart)
            options.progress(lateStart)
        }
        let runStart = loop.now() + startDelay
        let cohort: BrowserCohort
        do {
            cohort = try BrowserCohort(scenario: scenario, plan: plan, target: target, folder: options.folder, cellPrefix: prefix,
                                       runStartEpochMs: Date().timeIntervalSince1970 * 1000 + startDelay.milliseconds)
        } catch {
            server?.shutdown()
            return .failure(error)
        }
        defer { cohort.stop() }
        let collector = CellCollector(workers: workers, plan: plan, scenario: scenario, runStart: runStart, prefix: prefix, peerLog: peerLog,
                                      live: LiveFigures(scenario: scenario.name, cell: cell.label, shard: (options.shard ?? .whole).description,
                                                        groups: scenario.groups.enumerated().map { $1.name ?? String($0) }))
        collector.onProgress = options.progress
        let metricsEndpoint: MetricsEndpoint?
        do {
            metricsEndpoint = try options.metricsListen.map { try MetricsEndpoint(loop: loop, address: $0) { collector.live } }
        } catch {
            server?.shutdown()
            return .failure(TargetError("cannot serve metrics on \(options.metricsListen.map { "\($0)" } ?? ""): \(error)"))
        }
        defer { metricsEndpoint?.close() }
        let started: (inProcess: WorkerSession?, children: [WorkerProcess])
        switch startWorkers(cell: index, plan: plan, scenario: scenario, target: target, loop: loop, runStart: runStart, collector: collector) {
        case .success(let workers): started = workers
        case .failure(let error): return .failure(error)
        }
        interrupts.onSignal = { [weak self] _ in
            guard let self, !self.interrupted else { return }
            self.interrupted = true
            started.inProcess?.interrupt()
            started.children.forEach { $0.interrupt() }
        }

        var series = CellSeries()
        let statsPoller = serverStatsPoller(loop: loop, target: target, streams: Set(plan.peers.compactMap(\.stream)))
        statsPoller?.poll()
        let duration = Double(plan.durationMs) / 1000
        let deadline = runStart + .milliseconds(plan.durationMs) + .seconds(15)
        var nextSample = runStart + .seconds(1)
        while !collector.allDone && loop.now() < deadline {
            loop.run(until: { loop.now() >= nextSample || collector.allDone }, timeout: .seconds(2))
            guard loop.now() >= nextSample else { continue }
            nextSample = nextSample + .seconds(1)
            let t = loop.now().milliseconds(since: runStart) / 1000
            series.sample(at: t, from: collector, server: server, poller: statsPoller)
            if let last = series.samples.last {
                options.progress(progressLine(cell: cell, index: index, total: total, t: min(t, duration), duration: duration,
                                              sample: last, lag: loop.timerLateness.percentile(99) ?? 0)
                                 + collector.lost.keys.sorted().map { " | \(collector.lost[$0] ?? "")" }.joined())
            }
        }
        if !cohort.isEmpty {
            cohort.awaitResults(loop: loop, until: runStart + .milliseconds(plan.durationMs) + BrowserCohort.reportGrace)
            collector.addBrowserRecords(cohort.records())
        }
        let endedAtMs = loop.now().milliseconds(since: runStart)
        series.close(at: endedAtMs / 1000, from: collector)
        for child in started.children where child.exitStatus == nil && !collector.ended.contains(child.index) {
            collector.workerLost(child.index, "did not finish within 15 s of the planned end", now: loop.now())
            child.forceStop()
        }
        collector.finishLive()
        metricsEndpoint?.serveOneMoreScrape(within: options.metricsLingerS)
        // Let the last closes go out, then stop the built-in server.
        loop.run(until: { false }, timeout: .milliseconds(200))
        server?.shutdown()
        loop.run(until: { false }, timeout: .milliseconds(100))
        let report = cellReport(cell, scenario: scenario, plan: plan, collector: collector, series: series, endedAtMs: endedAtMs,
                                children: started.children, server: server, statsPoller: statsPoller)
        return .success((report, collector.results.keys.sorted().compactMap { collector.results[$0]?.report }, collector.lostDescription))
    }

    /// A server keeps a stream busy for a while after its publisher leaves (SRS: 30 s):
    /// each cell of a matrix publishes under a name of its own.
    static func namedApart(_ scenario: Scenario, cell index: Int, of total: Int) -> Scenario {
        guard total > 1 else { return scenario }
        var scenario = scenario
        for group in scenario.groups.indices {
            var stream = scenario.groups[group].stream ?? StreamSettings()
            stream.name = "\(stream.resolvedName)-c\(index)"
            scenario.groups[group].stream = stream
        }
        return scenario
    }
}
