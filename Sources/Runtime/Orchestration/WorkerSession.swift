import EventLoop
import Metrics
import Report
import RTCBase
import Scenario

/// One worker's part of one matrix cell, on one event loop: its peers run as planned, a
/// sample leaves every second, each peer's record leaves as the peer ends, and the figures
/// leave at the end, all through `onMessage`. The same code runs inside the coordinator
/// (one worker) and in `rtcswarm worker` child processes (several).
public final class WorkerSession {
    public let index: Int
    public let loop: EventLoop
    public var onMessage: (WorkerMessage) -> Void = { _ in }
    public private(set) var isDone = false
    private let recorder: RunRecorder
    private let worker: WorkerRun
    private let fanout: MediaFanout
    private let plannedPeers: Int
    private let runEnd: Instant
    private let thresholds: [(spec: ThresholdSpec, threshold: Threshold)]
    private var abortedBy: String?
    private var cpuBefore = 0.0
    private var sampler: TimerID?

    public init(index: Int, loop: EventLoop, scenario: Scenario, plan: ExecutionPlan, target: ResolvedTarget,
                runStart: Instant) throws(TargetError) {
        self.index = index
        self.loop = loop
        loop.wakeupBatching = scenario.wakeupBatching
        let mine = plan.peers.filter { $0.worker == index }
        plannedPeers = mine.count
        recorder = RunRecorder(runStart: runStart)
        runEnd = runStart + .milliseconds(plan.durationMs)
        fanout = MediaFanout(loop: loop)
        worker = try WorkerRun(loop: loop, plan: mine, scenario: scenario, target: target, recorder: recorder, fanout: fanout)
        thresholds = scenario.thresholdList.compactMap { spec in
            spec.abortOnFail == true ? (try? Threshold(parsing: spec.expr)).map { (spec, $0) } : nil
        }
    }

    public func begin() {
        recorder.onRecord = { [weak self] record in self?.onMessage(WorkerMessage(peer: record)) }
        // Lag while the run measures (METRICS.md: the saturation guard). Timers due at the
        // planned end or later are the teardown: every peer stopping in one turn is late by
        // design and distorts no figure.
        loop.onTimerLateness = { [recorder, runEnd] due, lateness in
            if due < runEnd { recorder.record(Double(lateness) / 1e6, in: .lagMs) }
        }
        cpuBefore = ProcessCPU.seconds()
        watchForStalls()
        worker.begin()
        scheduleSample(at: recorder.runStart + .seconds(1))
        loop.schedule(at: runEnd) { [weak self] in self?.finishWhenIdle() }
    }

    /// Stops spawning and ends every live peer politely (Ctrl-C, SIGTERM, or an abort).
    public func interrupt() {
        worker.interrupt()
        finishWhenIdle()
    }

    /// A timer due every `LoopStalls.bound` while the run measures, so that a loop with
    /// nothing else due (a worker of players waits on its sockets) still sees its own
    /// stalls: the loop notes a stall only against a timer that was due.
    private func watchForStalls() {
        guard loop.now() < runEnd, !isDone else { return }
        loop.schedule(after: LoopStalls.bound) { [weak self] in self?.watchForStalls() }
    }

    private func scheduleSample(at deadline: Instant) {
        sampler = loop.schedule(at: deadline) { [weak self] in
            guard let self, !self.isDone else { return }
            // Every peer has failed and none is left to start: nothing more can happen, so
            // the worker ends now rather than at the planned end (the runner says why).
            if self.worker.isFinished, self.recorder.records.allSatisfy({ $0.outcome == .failed }) {
                return self.finishWhenIdle()
            }
            let groups = self.worker.statesByGroup, receive = self.recorder.receiveTotals
            let counts = groups.values.reduce(PeerStates()) { $0.adding($1) }
            self.onMessage(WorkerMessage(sample: WorkerSample(
                tS: self.recorder.offset(self.loop.now()) / 1000, connecting: counts.connecting, connected: counts.connected,
                failed: counts.failed, lagP99Ms: self.recorder.lagP99Ms,
                bytesSent: self.loop.udpBytesSent, bytesReceived: self.loop.udpBytesReceived, receive: receive,
                cpuSeconds: ProcessCPU.seconds(), relays: self.recorder.takeRecentRelays(), jitter: LiveJitter(receive),
                groups: groups)))
            for (spec, threshold) in self.thresholds where self.abortedBy == nil {
                let verdict = threshold.evaluate(self.recorder.metrics)
                if !verdict.passed, verdict.measured != nil {
                    self.abortedBy = spec.expr
                    self.interrupt()
                }
            }
            self.scheduleSample(at: deadline + .seconds(1))
        }
    }

    /// Sends the result once every peer has ended (at the planned end they all have).
    private func finishWhenIdle() {
        guard !isDone else { return }
        guard worker.isFinished else {
            loop.schedule(after: .milliseconds(20)) { [weak self] in self?.finishWhenIdle() }
            return
        }
        isDone = true
        let pace = fanout.pace(at: loop.now())
        fanout.stopAll()
        if let sampler { loop.cancel(sampler) }
        let wall = max(1e-3, (loop.now() - recorder.runStart).milliseconds / 1000)
        let cpu = ProcessCPU.seconds() - cpuBefore
        recorder.set(.connectedPeers, to: Double(recorder.connectedPeers))
        recorder.record(cpu / wall * 100, in: .cpuPct)
        recorder.record(ProcessCPU.maxResidentMegabytes(), in: .rssMb)
        let lag = recorder.metrics.histograms[.lagMs]
        let encoderCPU = fanout.encoderCPUSeconds
        let sent = recorder.records.reduce(0) { $0 + ($1.sentStreams ?? []).reduce(0) { $0 + $1.packetsSent } }
        let received = recorder.records.reduce(0) { $0 + $1.streams.reduce(0) { $0 + $1.packetsReceived } }
        let peerSeconds = recorder.records.reduce(0) { $0 + max(0, $1.endedAtMs - $1.startedAtMs) } / 1000
        let report = WorkerReport(index: index, peers: plannedPeers, cpuPct: cpu / wall * 100,
                                  rssMB: ProcessCPU.maxResidentMegabytes(), lagP50Ms: lag?.percentile(50) ?? 0,
                                  lagP99Ms: recorder.lagP99Ms, lagMaxMs: lag?.max ?? 0, socketDrops: recorder.socketDrops,
                                  sendErrors: loop.udpSendFailures, encoderCpuPct: encoderCPU / wall * 100, packetsSent: sent, packetsReceived: received,
                                  cpuUsPerPacket: sent + received > 0 ? (cpu - encoderCPU) / Double(sent + received) * 1e6 : nil,
                                  cpuMsPerPeerSecond: peerSeconds > 0 ? (cpu - encoderCPU) / peerSeconds * 1000 : nil,
                                  udpBytesSent: loop.udpBytesSent, udpBytesReceived: loop.udpBytesReceived)
        onMessage(WorkerMessage(result: WorkerResult(metrics: recorder.metrics, report: report, abortedBy: abortedBy,
                                                     lateFrames: pace.behind, framesDue: pace.due,
                                                     encoderErrors: fanout.errors)))
    }
}
