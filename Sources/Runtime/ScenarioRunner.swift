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
    public enum Outcome: Equatable, Sendable {
        case passed
        case thresholdsFailed
        case harnessSaturated
        case interrupted
        /// Nothing could run: the reason in words a user can act on.
        case couldNotRun(String)
    }

    public struct Options {
        public var folder: URL
        public var version: String
        /// Called about once a second with a one-line status.
        public var progress: (String) -> Void

        public init(folder: URL, version: String, progress: @escaping (String) -> Void) {
            self.folder = folder
            self.version = version
            self.progress = progress
        }
    }

    public let loaded: LoadedScenario
    public let options: Options
    private var interrupted = false

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
        let wallStart = MonotonicClock.now()
        for (index, cell) in cells.enumerated() where !interrupted {
            switch runCell(cell, index: index, of: cells.count, peerLog: peerLog) {
            case .success(let (cellReport, worker)):
                report.cells.append(cellReport)
                report.workers.append(worker)
            case .failure(let error):
                report.abortReason = error.description
                report.durationS = (MonotonicClock.now() - wallStart).milliseconds / 1000
                return (report, .couldNotRun(error.description))
            }
        }
        report.durationS = (MonotonicClock.now() - wallStart).milliseconds / 1000
        report.interrupted = interrupted
        if let worst = report.workers.max(by: { $0.lagP99Ms < $1.lagP99Ms }), worst.lagP99Ms > 50 {
            report.invalidReason = "event-loop lag p99 \(Self.format(worst.lagP99Ms)) ms in worker \(worst.index) exceeds 50 ms"
        } else if let dropping = report.workers.first(where: { $0.socketDrops > 0 }) {
            report.invalidReason = "worker \(dropping.index) dropped \(dropping.socketDrops) datagrams in full socket buffers"
        }
        if let abort = report.cells.flatMap(\.thresholds).first(where: { !$0.passed && $0.abortOnFail }) {
            report.abortReason = "threshold \(abort.expr) failed with abort_on_fail"
        }
        let outcome: Outcome = interrupted ? .interrupted
            : report.invalidReason != nil ? .harnessSaturated
            : report.cells.allSatisfy({ $0.thresholds.allSatisfy(\.passed) }) && report.abortReason == nil ? .passed
            : .thresholdsFailed
        return (report, outcome)
    }

    private func runCell(_ cell: MatrixCell, index: Int, of total: Int, peerLog: PeerLog) -> Result<(CellReport, WorkerReport), TargetError> {
        let scenario = cell.scenario
        let loop: EventLoop
        let interrupts: InterruptWatcher
        do {
            loop = try EventLoop()
            interrupts = try InterruptWatcher(loop: loop)
        } catch {
            return .failure(TargetError("cannot start the event loop: \(error)"))
        }
        var server: RoomServerHost?
        let target: ResolvedTarget
        switch startTarget(scenario.target, loop: loop) {
        case .success(let (resolved, host)):
            target = resolved
            server = host
        case .failure(let error):
            return .failure(error)
        }
        let recorder = RunRecorder(runStart: loop.now() + .milliseconds(100))
        let prefix = total > 1 ? "c\(index)-" : ""
        recorder.onRecord = { record in
            var labelled = record
            labelled.id = prefix + record.id
            try? peerLog.append(labelled)
        }
        let plan = ExecutionPlan(scenario: scenario, workers: 1)
        let worker: WorkerRun
        do {
            worker = try WorkerRun(loop: loop, plan: plan.peers, scenario: scenario, target: target, recorder: recorder)
        } catch {
            return .failure(error)
        }
        loop.onTimerLateness = { recorder.record(Double($0) / 1e6, in: .lagMs) }
        interrupts.onSignal = { [weak self] _ in
            guard let self, !self.interrupted else { return }
            self.interrupted = true
            worker.interrupt()
        }
        let thresholds = (scenario.thresholds ?? []).compactMap { spec in (try? Threshold(parsing: spec.expr)).map { (spec, $0) } }
        var samples: [TimeSample] = []
        var serverSamples: [ServerSample] = []
        var lastRelayed = 0
        var aborted: String?
        let cpuBefore = ProcessCPU.seconds()
        let runEnd = recorder.runStart + .milliseconds(plan.durationMs)
        worker.begin()
        var nextSample = recorder.runStart + .seconds(1)
        while !worker.isFinished || loop.now() < runEnd {
            loop.run(until: { loop.now() >= nextSample || (self.interrupted && worker.isFinished) }, timeout: .seconds(2))
            if interrupted && worker.isFinished { break }
            guard loop.now() >= nextSample else { continue }
            nextSample = nextSample + .seconds(1)
            let counts = worker.counts
            let t = recorder.offset(loop.now()) / 1000
            samples.append(TimeSample(tS: t, connectingPeers: counts.connecting, connectedPeers: counts.connected,
                                      failedPeers: counts.failed, receiveKbps: 0, sendKbps: 0,
                                      lagP99Ms: loop.timerLateness.percentileMilliseconds(99)))
            if let stats = server?.stats {
                serverSamples.append(ServerSample(tS: t, values: [
                    "connections": Double(stats.connections), "members": Double(server?.core.memberCount ?? 0),
                    "messages_relayed_per_s": Double(stats.messagesRelayed - lastRelayed),
                ]))
                lastRelayed = stats.messagesRelayed
            }
            options.progress(progressLine(cell: cell, index: index, total: total, t: t, duration: Double(plan.durationMs) / 1000,
                                          counts: counts, recorder: recorder, loop: loop))
            for (spec, threshold) in thresholds where spec.abortOnFail == true {
                let verdict = threshold.evaluate(recorder.metrics)
                if !verdict.passed, verdict.measured != nil, aborted == nil {
                    aborted = spec.expr
                    worker.interrupt()
                }
            }
            if aborted != nil, worker.isFinished { break }
        }
        // Let the last leaves and closes go out, then stop the built-in server.
        loop.run(until: { false }, timeout: .milliseconds(200))
        server?.shutdown()
        loop.run(until: { false }, timeout: .milliseconds(100))

        let wall = max(1e-3, (loop.now() - recorder.runStart).milliseconds / 1000)
        let cpu = ProcessCPU.seconds() - cpuBefore
        recorder.set(.connectedPeers, to: Double(worker.peakConnected))
        recorder.record(cpu / wall * 100, in: .cpuPct)
        recorder.record(ProcessCPU.maxResidentMegabytes(), in: .rssMb)
        let lag = recorder.metrics.histograms[.lagMs]
        let workerReport = WorkerReport(index: 0, peers: plan.peers.count, cpuPct: cpu / wall * 100,
                                        rssMB: ProcessCPU.maxResidentMegabytes(), lagP50Ms: lag?.percentile(50) ?? 0,
                                        lagP99Ms: lag?.percentile(99) ?? 0, lagMaxMs: lag?.max ?? 0, socketDrops: 0, sendErrors: 0)
        let outcomes = thresholds.map { spec, threshold in
            let verdict = threshold.evaluate(recorder.metrics)
            return ThresholdOutcome(expr: spec.expr, passed: verdict.passed, measured: verdict.measured, abortOnFail: spec.abortOnFail ?? false)
        }
        var peers = recorder.records
        for index in peers.indices { peers[index].id = prefix + peers[index].id }
        return .success((CellReport(label: cell.label, parameters: cell.parameters, metrics: recorder.metrics, thresholds: outcomes,
                                    timeSeries: samples, peers: peers, serverSamples: serverSamples), workerReport))
    }

    /// The built-in server started on a free loopback port, or a room server's URL checked
    /// for reachability before any peer starts.
    private func startTarget(_ target: Target, loop: EventLoop) -> Result<(ResolvedTarget, RoomServerHost?), TargetError> {
        switch target.kind {
        case .builtinRoom:
            var configuration = RoomServerConfiguration()
            configuration.capacity = target.room?.capacity ?? 2
            configuration.events = RoomEventNames(otherJoined: target.room?.otherJoinedEvent ?? "other_joined")
            do {
                let host = try RoomServerHost(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0), configuration: configuration)
                let endpoint = Endpoint(scheme: .http, host: "127.0.0.1", port: host.address.port)
                return .success((ResolvedTarget(address: host.address, endpoint: endpoint), host))
            } catch {
                return .failure(TargetError("cannot start the built-in room server: \(error)"))
            }
        case .room:
            do {
                let resolved = try TargetResolver.resolve(target.url ?? "")
                try Reachability.check(resolved.address, loop: loop, timeout: .seconds(3))
                return .success((resolved, nil))
            } catch {
                return .failure(error)
            }
        case .srs, .whip, .whep, .janus:
            return .failure(TargetError("target kind \"\(target.kind.rawValue)\" needs the WebRTC peer, which this build of "
                                        + "rtcswarm does not wire into runs yet; use builtin-room or room with role member"))
        }
    }

    private func progressLine(cell: MatrixCell, index: Int, total: Int, t: Double, duration: Double, counts: WorkerRun.Counts,
                              recorder: RunRecorder, loop: EventLoop) -> String {
        let relay = recorder.metrics.histograms[.relayMs]
        let cellText = total > 1 ? "[\(index + 1)/\(total) \(cell.label)] " : ""
        return "\(cellText)\(Self.format(min(t, duration)))/\(Self.format(duration)) s | peers: \(counts.connecting) connecting, "
            + "\(counts.connected) connected, \(counts.failed) failed | relay p50 \(Self.format(relay?.percentile(50) ?? 0)) ms "
            + "p99 \(Self.format(relay?.percentile(99) ?? 0)) ms | lag p99 \(Self.format(loop.timerLateness.percentileMilliseconds(99))) ms"
    }

    static func format(_ value: Double) -> String { String(format: value >= 100 ? "%.0f" : "%.1f", value) }
}
