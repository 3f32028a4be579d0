import EventLoop
import Metrics
import Report
import RTCBase
import Scenario

/// What one cell's workers have told the coordinator: every record (each also written to
/// peers.ndjson, its id prefixed by the cell), each worker's latest sample and result, the
/// relay times since the last tick, and the workers that were lost, whose peers that sent
/// no record are recorded as failed with the reason.
final class CellCollector {
    let workers: Int
    private let plan: ExecutionPlan
    private let scenario: Scenario
    private let runStart: Instant
    private let prefix: String
    private let peerLog: PeerLog
    /// What `--metrics-listen` serves.
    private(set) var live: LiveFigures
    private(set) var records: [PeerRecord] = []
    private(set) var latest: [Int: WorkerSample] = [:]
    private(set) var results: [Int: WorkerResult] = [:]
    /// Workers whose process has ended.
    var ended = Set<Int>()
    /// Records as each worker sent them, and why a worker was lost.
    private(set) var reported: [Int: [PeerRecord]] = [:]
    private(set) var lost: [Int: String] = [:]
    /// The Chromium peers' failed and connected counts.
    private var browserFigures = MetricSet()
    /// The relay times the workers' samples brought since the last tick.
    var recentRelays = Histogram()
    var onProgress: (String) -> Void = { _ in }

    init(workers: Int, plan: ExecutionPlan, scenario: Scenario, runStart: Instant, prefix: String, peerLog: PeerLog, live: LiveFigures) {
        self.workers = workers
        self.plan = plan
        self.scenario = scenario
        self.runStart = runStart
        self.prefix = prefix
        self.peerLog = peerLog
        self.live = live
    }

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

    /// The records of the cell's Chromium peers (`BrowserCohort`), which no worker ran.
    func addBrowserRecords(_ browserRecords: [PeerRecord]) {
        for var record in browserRecords {
            record.id = prefix + record.id
            records.append(record)
            try? peerLog.append(record)
        }
        browserFigures.increment(.failedPeers, by: browserRecords.filter { $0.outcome == .failed }.count)
        browserFigures.set(.connectedPeers, to: Double(browserRecords.filter(\.endedConnected).count))
    }

    /// A worker that ended without its result (`how`: how it ended), noticed at `now`.
    func workerLost(_ worker: Int, _ how: String, now: Instant) {
        guard results[worker] == nil, lost[worker] == nil else { return }
        let atMs = max(0, now.milliseconds(since: runStart))
        let reason = "worker \(worker) \(how) at \(ScenarioRunner.format(atMs / 1000)) s"
        lost[worker] = reason
        let unreported = LostWorker.unreported(plan.peers.filter { $0.worker == worker }, reported: reported[worker, default: []],
                                               scenario: scenario, reason: reason, atMs: atMs)
        unreported.forEach { receive(WorkerMessage(peer: $0), from: worker) }
        let failed = reported[worker, default: []].filter { $0.outcome == .failed }.count
        let last = latest[worker]
        latest[worker] = WorkerSample(tS: atMs / 1000, connecting: 0, connected: 0, failed: failed, lagP99Ms: 0,
                                      bytesSent: last?.bytesSent ?? 0, bytesReceived: last?.bytesReceived ?? 0, receive: last?.receive)
        onProgress("\(reason): its \(unreported.count) unfinished peer(s) are recorded as failed")
    }

    /// Every worker has given its result or was lost (and every child process ended).
    var allDone: Bool { results.count + lost.count == workers && (workers == 1 || ended.count == workers) }

    /// The UDP bytes every worker sent and received: its result's, else its last sample's.
    var finalBytes: (sent: Int, received: Int) {
        (0..<workers).reduce((0, 0)) { sum, worker in
            let report = results[worker]?.report, sample = latest[worker]
            return (sum.0 + (report?.udpBytesSent ?? sample?.bytesSent ?? 0), sum.1 + (report?.udpBytesReceived ?? sample?.bytesReceived ?? 0))
        }
    }

    /// The figures of every worker: their results' and, for lost ones, their records'.
    var metrics: MetricSet {
        var metrics = MetricSet()
        metrics.increment(.failedPeers, by: 0)
        for result in results.values { metrics.merge(result.metrics) }
        for worker in lost.keys { metrics.merge(LostWorker.metrics(of: reported[worker, default: []], runStart: runStart)) }
        metrics.merge(browserFigures)
        return metrics
    }

    /// The server's own latest figures, for the live figures.
    func serverFigures(_ values: [String: Double]) { live.server.merge(values) { $1 } }

    func finishLive() {
        for worker in 0..<workers { live.finish(worker: worker, records: reported[worker, default: []], report: results[worker]?.report) }
    }

    /// Why the cell lost workers, or nil.
    var lostDescription: String? { lost.isEmpty ? nil : lost.keys.sorted().compactMap { lost[$0] }.joined(separator: "; ") }
}
