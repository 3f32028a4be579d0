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
        /// Worker processes; 1 runs the peers in this process.
        public var workers: Int
        /// The `rtcswarm` executable that `rtcswarm worker` children run (needed when workers > 1).
        public var workerExecutable: URL?
        /// Called about once a second with a one-line status.
        public var progress: (String) -> Void
        /// The part of the scenario this process runs (`run --shard I/N`); nil: all of it.
        public var shard: Shard?
        /// The wall-clock time every shard starts its first peers at (`--start-at`).
        public var startAt: Date?
        /// Where to serve live OpenMetrics figures while the run goes on (`--metrics-listen`).
        public var metricsListen: SocketAddress?
        /// How long after a cell to wait for one more scrape of its final figures (`--metrics-linger`).
        public var metricsLingerS = 0.0

        public init(folder: URL, version: String, workers: Int = 1, workerExecutable: URL? = nil, shard: Shard? = nil,
                    startAt: Date? = nil, metricsListen: SocketAddress? = nil, metricsLingerS: Double = 0,
                    progress: @escaping (String) -> Void) {
            self.folder = folder
            self.version = version
            self.workers = workers
            self.workerExecutable = workerExecutable
            self.shard = shard
            self.startAt = startAt
            self.metricsListen = metricsListen
            self.metricsLingerS = metricsLingerS
            self.progress = progress
        }
    }

    /// Where children find the resolved scenario.
    static let resolvedScenarioFile = "scenario.resolved.json"

    public let loaded: LoadedScenario
    public let options: Options
    private var interrupted = false
    private var warnings: [String] = []
    /// The target's name and version as it told them ("SRS 7.0.18").
    private var targetVersion: String?

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
        var scenario = cell.scenario
        // A server keeps a stream busy for a while after its publisher leaves (SRS: 30 s):
        // each cell of a matrix publishes under a name of its own.
        if total > 1 {
            for group in scenario.groups.indices {
                var stream = scenario.groups[group].stream ?? StreamSettings()
                stream.name = "\(stream.resolvedName)-c\(index)"
                scenario.groups[group].stream = stream
            }
        }
        let loop: EventLoop
        let interrupts: InterruptWatcher
        do {
            loop = try EventLoop()
            interrupts = try InterruptWatcher(loop: loop)
        } catch {
            return .failure(TargetError("cannot start the event loop: \(error)"))
        }
        var server: RoomServerStream?
        let target: ResolvedTarget
        switch startTarget(scenario.target, loop: loop) {
        case .success(let (resolved, host)):
            target = resolved
            server = host
        case .failure(let error):
            return .failure(error)
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
        var records: [PeerRecord] = []
        var live = LiveFigures(scenario: scenario.name, cell: cell.label, shard: (options.shard ?? .whole).description)
        let metricsEndpoint: MetricsEndpoint?
        do {
            metricsEndpoint = try options.metricsListen.map { try MetricsEndpoint(loop: loop, address: $0) { live } }
        } catch {
            server?.shutdown()
            return .failure(TargetError("cannot serve metrics on \(options.metricsListen.map { "\($0)" } ?? ""): \(error)"))
        }
        defer { metricsEndpoint?.close() }
        var latest: [Int: WorkerSample] = [:]
        /// The relay times the workers' samples brought since the last tick.
        var recentRelays = Histogram()
        var results: [Int: WorkerResult] = [:]
        var ended = Set<Int>()
        /// Records as each worker sent them, and why a worker was lost.
        var reported: [Int: [PeerRecord]] = [:]
        var lost: [Int: String] = [:]
        func receive(_ message: WorkerMessage, from worker: Int) {
            live.observe(message, from: worker)
            if var record = message.peer {
                reported[worker, default: []].append(record)
                record.id = prefix + record.id
                records.append(record)
                try? peerLog.append(record)
            }
            if let sample = message.sample {
                latest[worker] = sample
                if let relays = sample.relays { recentRelays.merge(relays) }
            }
            if let result = message.result { results[worker] = result }
        }
        func workerLost(_ worker: Int, _ how: String) {
            guard results[worker] == nil, lost[worker] == nil else { return }
            let atMs = max(0, loop.now().milliseconds(since: runStart))
            let reason = "worker \(worker) \(how) at \(Self.format(atMs / 1000)) s"
            lost[worker] = reason
            let unreported = LostWorker.unreported(plan.peers.filter { $0.worker == worker }, reported: reported[worker] ?? [],
                                                   scenario: scenario, reason: reason, atMs: atMs)
            unreported.forEach { receive(WorkerMessage(peer: $0), from: worker) }
            let failed = (reported[worker] ?? []).filter { $0.outcome == .failed }.count
            latest[worker] = WorkerSample(tS: atMs / 1000, connecting: 0, connected: 0, failed: failed, lagP99Ms: 0,
                                          bytesSent: latest[worker]?.bytesSent ?? 0, bytesReceived: latest[worker]?.bytesReceived ?? 0,
                                          receive: latest[worker]?.receive)
            options.progress("\(reason): its \(unreported.count) unfinished peer(s) are recorded as failed")
        }

        var inProcess: WorkerSession?
        var children: [WorkerProcess] = []
        do {
            if workers == 1 {
                let session = try WorkerSession(index: 0, loop: loop, scenario: scenario, plan: plan, target: target, runStart: runStart)
                session.onMessage = { receive($0, from: 0) }
                session.begin()
                inProcess = session
            } else {
                guard let executable = options.workerExecutable else {
                    return .failure(TargetError("\(workers) workers need the rtcswarm executable to start them"))
                }
                // Builds the drivers once here, so a role this build cannot play fails before any child starts.
                _ = try WorkerSession(index: 0, loop: loop, scenario: scenario, plan: plan, target: target, runStart: runStart)
                for worker in 0..<workers {
                    let child = try WorkerProcess(index: worker, executable: executable, arguments: [
                        "worker", "--scenario", options.folder.appendingPathComponent(Self.resolvedScenarioFile).path,
                        "--cell", String(index), "--worker", String(worker), "--workers", String(workers),
                        "--target", target.endpoint.description, "--start", String(runStart.nanoseconds),
                        "--shard", (options.shard ?? .whole).description,
                    ], loop: loop)
                    child.onMessage = { receive($0, from: worker) }
                    child.onEnd = { [unowned child] in
                        ended.insert(worker)
                        if results[worker] == nil { workerLost(worker, child.endDescription()) }
                    }
                    children.append(child)
                }
            }
        } catch let error as TargetError {
            return .failure(error)
        } catch {
            return .failure(TargetError("cannot start worker processes: \(error)"))
        }
        interrupts.onSignal = { [weak self] _ in
            guard let self, !self.interrupted else { return }
            self.interrupted = true
            inProcess?.interrupt()
            children.forEach { $0.interrupt() }
        }

        var samples: [TimeSample] = []
        var serverSamples: [ServerSample] = []
        let statsPoller = serverStatsPoller(loop: loop, target: target, streams: Set(plan.peers.compactMap(\.stream)))
        statsPoller?.poll()
        var lastRelayed = 0
        let duration = Double(plan.durationMs) / 1000
        let deadline = runStart + .milliseconds(plan.durationMs) + .seconds(15)
        var nextSample = runStart + .seconds(1)
        var bitrate = BitrateSeries()
        var receiveSeries = ReceiveSeries()
        var cpuSeries = WorkerCPUSeries()
        func allDone() -> Bool { results.count + lost.count == workers && (workers == 1 || ended.count == workers) }
        while !allDone() && loop.now() < deadline {
            loop.run(until: { loop.now() >= nextSample || allDone() }, timeout: .seconds(2))
            guard loop.now() >= nextSample else { continue }
            nextSample = nextSample + .seconds(1)
            let t = loop.now().milliseconds(since: runStart) / 1000
            let now = latest.values
            samples.append(TimeSample(tS: t, connectingPeers: now.reduce(0) { $0 + $1.connecting },
                                      connectedPeers: now.reduce(0) { $0 + $1.connected }, failedPeers: now.reduce(0) { $0 + $1.failed },
                                      receiveKbps: 0, sendKbps: 0, lagP99Ms: now.map(\.lagP99Ms).max() ?? 0))
            (samples[samples.count - 1].sendKbps, samples[samples.count - 1].receiveKbps) =
                bitrate.kbps(at: t, sent: now.reduce(0) { $0 + $1.bytesSent }, received: now.reduce(0) { $0 + $1.bytesReceived })
            (samples[samples.count - 1].lossPct, samples[samples.count - 1].nacksPerS, samples[samples.count - 1].fps) =
                receiveSeries.figures(at: t, totals: now.compactMap(\.receive).reduce(ReceiveTotals(), +))
            samples[samples.count - 1].cpuPct = cpuSeries.busiestPct(at: t, samples: latest)
            samples[samples.count - 1].relays(recentRelays)
            recentRelays = Histogram()
            if let server {
                let stats = server.stats
                serverSamples.append(ServerSample(tS: t, values: [
                    "connections": Double(stats.connections), "members": Double(server.machine.memberCount),
                    "messages_relayed_per_s": Double(stats.messagesRelayed - lastRelayed),
                ]))
                lastRelayed = stats.messagesRelayed
            }
            if let statsPoller {
                if !statsPoller.latest.isEmpty { serverSamples.append(ServerSample(tS: t, values: statsPoller.latest)) }
                statsPoller.poll()
            }
            if let last = samples.last {
                options.progress(progressLine(cell: cell, index: index, total: total, t: min(t, duration), duration: duration,
                                              sample: last, lag: loop.timerLateness.percentile(99) ?? 0)
                                 + lost.keys.sorted().map { " | \(lost[$0] ?? "")" }.joined())
            }
        }
        let endedAtMs = loop.now().milliseconds(since: runStart)
        // A closing sample with the workers' final byte counts: the samples above lag the
        // workers' own by up to a second, and the series must add up to every byte sent.
        if var closing = samples.last, endedAtMs / 1000 > closing.tS {
            closing.tS = endedAtMs / 1000
            let final = (0..<workers).map { worker in
                (results[worker]?.report.udpBytesSent ?? latest[worker]?.bytesSent ?? 0,
                 results[worker]?.report.udpBytesReceived ?? latest[worker]?.bytesReceived ?? 0)
            }
            (closing.sendKbps, closing.receiveKbps) = bitrate.kbps(at: closing.tS, sent: final.reduce(0) { $0 + $1.0 },
                                                                   received: final.reduce(0) { $0 + $1.1 })
            // Its stretch is a fraction of a second of peers stopping: no loss, NACK or fps figure.
            (closing.lossPct, closing.nacksPerS, closing.fps) = (nil, nil, nil)
            closing.relays(recentRelays)  // what came since the last tick, not the last tick's again
            samples.append(closing)
        }
        for child in children where child.exitStatus == nil && !ended.contains(child.index) {
            workerLost(child.index, "did not finish within 15 s of the planned end")
            child.forceStop()
        }
        for worker in 0..<workers { live.finish(worker: worker, records: reported[worker] ?? [], report: results[worker]?.report) }
        metricsEndpoint?.serveOneMoreScrape(within: options.metricsLingerS)
        // Let the last closes go out, then stop the built-in server.
        loop.run(until: { false }, timeout: .milliseconds(200))
        server?.shutdown()
        loop.run(until: { false }, timeout: .milliseconds(100))

        var metrics = MetricSet()
        metrics.increment(.failedPeers, by: 0)
        for result in results.values { metrics.merge(result.metrics) }
        for worker in lost.keys { metrics.merge(LostWorker.metrics(of: reported[worker] ?? [], runStart: runStart)) }
        if !interrupted, endedAtMs < Double(plan.durationMs), !records.isEmpty, records.allSatisfy({ $0.outcome == .failed }) {
            let early = "\(cell.label): every peer had failed by \(Self.format(endedAtMs / 1000)) s and none was left to start: the run "
                + "ended \(Self.format((Double(plan.durationMs) - endedAtMs) / 1000)) s before its planned end"
            warnings.append(early)
            options.progress(early)
        }
        // The built-in server's relays of the members' rooms (pairs' offers and answers go
        // through other rooms and are not counted).
        let rooms = RoomMessageSummary.rooms(of: records, relayedByRoom: server?.stats.messagesRelayedByRoom)
        if let relayed = RoomMessageSummary.total(of: rooms).relayed, !rooms.isEmpty { metrics.increment(.messagesRelayed, by: relayed) }
        let outcomes = scenario.judgedThresholds.compactMap { judged -> ThresholdOutcome? in
            guard let threshold = try? Threshold(parsing: judged.spec.expr) else { return nil }
            let verdict = threshold.evaluate(metrics)
            return ThresholdOutcome(expr: judged.spec.expr, passed: verdict.passed, measured: verdict.measured,
                                    abortOnFail: judged.spec.abortOnFail ?? false, implied: judged.implied ? true : nil)
        }
        let workerReports = results.keys.sorted().compactMap { results[$0]?.report }
        let late = results.values.reduce(0) { $0 + $1.lateFrames }
        let due = results.values.reduce(0) { $0 + $1.framesDue }
        if Self.encodersFellBehind(late: late, due: due) {
            warnings.append("\(cell.label): the encoders fell behind real time by \(late) of \(due) frames: this machine cannot encode "
                            + "the scenario's tracks at their frame rate; lower the resolution or fps, or use fewer distinct tracks per worker")
        }
        warnings.append(contentsOf: Set(results.values.flatMap(\.encoderErrors)).sorted().map { "\(cell.label): encoder failed: \($0)" })
        if let lost = PeerRecord.signalingLossWarning(records) { warnings.append("\(cell.label): \(lost)") }
        warnings.append(contentsOf: children.compactMap(\.garbledWarning).map { "\(cell.label): \($0)" })
        if let statsPoller, statsPoller.latest.isEmpty, let problem = statsPoller.lastProblem {
            warnings.append("\(cell.label): no server-side figures: \(problem)")
        }
        targetVersion = targetVersion ?? statsPoller?.version
        var cellReport = CellReport(label: cell.label, parameters: cell.parameters, metrics: metrics, thresholds: outcomes,
                                    timeSeries: samples, peers: records, serverSamples: serverSamples)
        cellReport.rooms = rooms.isEmpty ? nil : rooms
        return .success((cellReport, workerReports, lost.isEmpty ? nil : lost.keys.sorted().compactMap { lost[$0] }.joined(separator: "; ")))
    }

    /// The poller of the target's own figures and version: SRS's API, or Janus's API and
    /// its admin API when the scenario names it (its URL was checked by `validate`; one
    /// that does not resolve is a warning, not a failed run). `streams` are the run's own
    /// streams on the server, counted apart from everyone else's.
    private func serverStatsPoller(loop: EventLoop, target: ResolvedTarget, streams: Set<String>) -> ServerStatsPoller? {
        let scenario = loaded.scenario
        switch scenario.target.kind {
        case .srs:
            return .srs(loop: loop, target: target, streams: streams)
        case .janus:
            var admin: (target: ResolvedTarget, secret: String)?
            if let janus = scenario.target.janus, let url = janus.adminUrl {
                do {
                    admin = (try TargetResolver.resolve(url), janus.adminSecret ?? JanusSettings.sampleAdminSecret)
                } catch {
                    warnings.append("target.janus.admin_url: \(error)")
                }
            }
            return .janus(loop: loop, target: target, admin: admin)
        case .builtinRoom, .room, .whip, .whep, .tcpP2P, .owt:
            return nil
        }
    }

    /// The built-in server started on a free loopback port, or a room server's URL checked
    /// for reachability before any peer starts.
    private func startTarget(_ target: Target, loop: EventLoop) -> Result<(ResolvedTarget, RoomServerStream?), TargetError> {
        switch target.kind {
        case .builtinRoom:
            var configuration = RoomServerConfiguration()
            configuration.capacity = target.room?.capacity ?? 2
            configuration.maxMessagesPerSecondPerAddress = target.room?.maxRatePerAddress
            configuration.events = RoomEventNames(otherJoined: target.otherJoinedEvent)
            do {
                let host = try RoomServerStream(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0), configuration: configuration)
                let endpoint = Endpoint(scheme: .http, host: "127.0.0.1", port: host.address.port)
                return .success((ResolvedTarget(address: host.address, endpoint: endpoint), host))
            } catch {
                return .failure(TargetError("cannot start the built-in room server: \(error)"))
            }
        case .tcpP2P:
            // Nobody listens before the run: the callers do, once started.
            return Result { () throws(TargetError) in (try TargetResolver.resolve(target.url ?? ""), nil) }
        case .room, .srs, .whip, .whep, .janus, .owt:
            do {
                let resolved = try TargetResolver.resolve(target.kind == .owt ? target.owt?.portal ?? "" : target.url ?? "")
                try Reachability.check(resolved.address, loop: loop, timeout: .seconds(3))
                return .success((resolved, nil))
            } catch {
                return .failure(error)
            }
        }
    }

    private func progressLine(cell: MatrixCell, index: Int, total: Int, t: Double, duration: Double, sample: TimeSample,
                              lag: Double) -> String {
        let cellText = total > 1 ? "[\(index + 1)/\(total) \(cell.label)] " : ""
        return "\(cellText)\(Self.format(t))/\(Self.format(duration)) s | peers: \(sample.connectingPeers) connecting, "
            + "\(sample.connectedPeers) connected, \(sample.failedPeers) failed | worker lag p99 \(Self.format(sample.lagP99Ms)) ms, "
            + "coordinator \(Self.format(lag)) ms"
    }

    /// Late frames are a finding when they are more than 1 % of the frames due: a frame or
    /// two made late on a busy machine (a scheduler hiccup) shows in no received figure.
    static func encodersFellBehind(late: Int, due: Int) -> Bool { late * 100 > due }

    /// The groups' ICE profiles (`ice.profile`, libwebrtc by default), each named once.
    static func iceProfiles(_ scenario: Scenario) -> String {
        var names: [String] = []
        for group in scenario.groups {
            let name = (group.ice?.profile ?? .libwebrtc).rawValue
            if !names.contains(name) { names.append(name) }
        }
        return names.joined(separator: ", ")
    }

    static func format(_ value: Double) -> String { String(format: value >= 100 ? "%.0f" : "%.1f", value) }
}
