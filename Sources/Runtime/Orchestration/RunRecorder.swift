import Metrics
import Report
import RTCBase
import Scenario

/// Collects what a worker's peers measure: the figures of METRICS.md, one record per
/// peer as it ends (handed on at once, so `peers.ndjson` grows while the run goes on),
/// and the counts behind the progress line.
public final class RunRecorder {
    public let runStart: Instant
    public private(set) var metrics = MetricSet()
    public private(set) var records: [PeerRecord] = []
    /// Called with each record the moment a peer ends.
    public var onRecord: (PeerRecord) -> Void = { _ in }
    /// More callers of each record, after `onRecord` (the worker's reconnects).
    private var observers: [(PeerRecord) -> Void] = []

    func observe(_ observer: @escaping (PeerRecord) -> Void) { observers.append(observer) }

    public init(runStart: Instant) {
        self.runStart = runStart
        metrics.increment(.failedPeers, by: 0)  // kept from the start: "0 failed" is a figure
    }

    /// Milliseconds since the run started.
    public func offset(_ instant: Instant) -> Double { instant.milliseconds(since: runStart) }

    public func record(_ value: Double, in name: MetricName) {
        metrics.record(value, in: name)
        if name == .relayMs { recentRelays.record(value) }
    }

    /// Relay times of the room messages received since the last `takeRecentRelays()`.
    private var recentRelays = Histogram()

    /// The relay times since the previous call (the worker's previous sample); nil when none.
    func takeRecentRelays() -> Histogram? {
        defer { recentRelays = Histogram() }
        return recentRelays.count > 0 ? recentRelays : nil
    }

    /// The worker's event-loop lag p99 in milliseconds, read from the `lag_ms` histogram
    /// the report keeps: the live progress line and the report show this one estimate.
    public var lagP99Ms: Double { metrics.histograms[.lagMs]?.percentile(99) ?? 0 }

    public private(set) var socketDrops = 0
    /// Peers that ended connected (`PeerRecord.endedConnected`): `connected_peers` once the
    /// worker is done (a gauge, so workers' levels add up when they merge).
    public private(set) var connectedPeers = 0
    public func countSocketDrops(_ count: Int) { socketDrops += count }

    /// What the ended peers received, and each live call's running totals by its token.
    private var endedReceive = ReceiveTotals()
    private var liveReceive: [Int: () -> ReceiveTotals] = [:]
    private var nextLiveToken = 0
    private var timelineLeavers: Set<String> = []

    /// Adds a live call's totals to `receiveTotals` until `endLive(token)` (its record then
    /// carries the same counts).
    func addLive(_ totals: @escaping () -> ReceiveTotals) -> Int {
        nextLiveToken += 1
        liveReceive[nextLiveToken] = totals
        return nextLiveToken
    }

    func endLive(_ token: Int) { liveReceive[token] = nil }

    /// Everything received so far: the ended peers' streams and the live calls'.
    public var receiveTotals: ReceiveTotals { liveReceive.values.reduce(endedReceive) { $0 + $1() } }

    /// Marks `id`'s planned stop as a timeline `leave` (or `rejoin`, `churn`): its record,
    /// if it completed, says it was left by the timeline.
    func leavesByTimeline(_ id: String) { timelineLeavers.insert(id) }

    public func finish(_ record: PeerRecord) {
        var record = record
        if record.outcome == .completed, timelineLeavers.contains(record.id) { record.leftByTimeline = true }
        records.append(record)
        endedReceive = endedReceive + ReceiveTotals(record.streams)
        if record.outcome == .failed { metrics.increment(.failedPeers) }
        if record.endedConnected { connectedPeers += 1 }
        if let messages = record.messages {
            metrics.increment(.messagesSent, by: messages.sent)
            metrics.increment(.messagesReceived, by: messages.received)
            metrics.increment(.messagesLost, by: messages.lost)
            metrics.increment(.messagesDuplicated, by: messages.duplicated)
        }
        for channel in record.dataChannels ?? [] { recordData(channel) }
        for (phase, value) in record.phases {
            if let name = MetricName(rawValue: phase), name.kind == .distribution { metrics.record(value, in: name) }
        }
        // Per received stream (docs/metrics.md): one value per stream in each distribution,
        // video and audio apart, so audio's unrepaired loss does not read as video's.
        for stream in record.streams {
            if let names = StreamFigureNames(kind: stream.kind) { recordPackets(of: stream, in: names) }
            if let latency = stream.latencyMs { metrics.record(latency, in: .latencyMs) }
            metrics.increment(.nacks, by: stream.nacks)
            metrics.increment(.plis, by: stream.plis)
            if let concealed = stream.concealedFrames { metrics.record(Double(concealed), in: .audioConcealedFrames) }
            if let hits = stream.markerHitPct { metrics.record(hits, in: .audioMarkerHitPct) }
            recordMutes(of: stream)
            guard stream.kind == "video" else { continue }
            metrics.record(stream.frameLossPct, in: .videoFrameLossPct)
            metrics.record(stream.fps, in: .fps)
            metrics.record(Double(stream.freezeCount), in: .freezeCount)
            metrics.record(stream.freezeMs, in: .freezeMs)
            if let harness = stream.harnessFreezeCount { metrics.record(Double(harness), in: .harnessFreezeCount) }
            if let survival = stream.resolutionSurvival { metrics.record(survival, in: .resolutionSurvival) }
            for change in stream.switches ?? [] {
                if let ms = change.switchMs { metrics.record(ms, in: .switchMs) } else { metrics.increment(.switchesMissed) }
                if let ms = change.freezeMs { metrics.record(ms, in: .switchFreezeMs) }
                if let lost = change.framesLost { metrics.record(Double(lost), in: .switchFramesLost) }
            }
            metrics.increment(.framesUnknownSize, by: stream.framesOfUnknownSize)  // 0 kept too: "none unknown" is a figure
            if let psnr = stream.psnrDb { metrics.record(psnr, in: .psnrDb) }
            if let ssim = stream.ssim {
                metrics.record(ssim.mean, in: .ssim)
                metrics.record(ssim.p5, in: .ssimP5)
            }
        }
        onRecord(record)
        for observer in observers { observer(record) }
    }

    /// How a stream's receiver saw its sender's mutes: the times after each unmute, and
    /// frames inside a "stop" mute.
    private func recordMutes(of stream: StreamRecord) {
        for mute in stream.mutes ?? [] {
            if let ms = mute.firstPacketMs { metrics.record(ms, in: .unmuteFirstPacketMs) }
            if let ms = mute.firstFrameMs { metrics.record(ms, in: .unmuteFirstFrameMs) }
            if mute.mode == MuteMode.stop.rawValue { metrics.increment(.framesWhileMuted, by: mute.framesDuring) }
        }
    }

    /// A data channel's counts and figures (its latency is recorded per message, as it arrives).
    private func recordData(_ channel: DataChannelRecord) {
        metrics.increment(.dcMessagesSent, by: channel.messagesSent)
        metrics.increment(.dcMessagesReceived, by: channel.messagesReceived)
        if let open = channel.openMs { metrics.record(open, in: .dcOpenMs) }
        guard channel.inFigures else { return }
        metrics.increment(.dcReordered, by: channel.reordered)
        if let throughput = channel.throughputKbps { metrics.record(throughput, in: .dcThroughputKbps) }
        if !channel.reliable, let loss = channel.lossPct { metrics.record(loss, in: .dcLossPct) }
    }

    /// A stream's packet figures into its kind's distributions.
    private func recordPackets(of stream: StreamRecord, in names: StreamFigureNames) {
        metrics.record(stream.lossPct, in: names.loss)
        metrics.record(stream.residualLossPct, in: names.residualLoss)
        metrics.record(Double(stream.burstMax), in: names.burstMax)
        metrics.record(stream.jitterMs, in: names.jitter)
        if let maximum = stream.jitterMaxMs { metrics.record(maximum, in: names.jitterMax) }
        if let episodes = stream.lossEpisodes { metrics.record(Double(episodes), in: names.lossEpisodes) }
    }

    /// Sets a level at the end of the run.
    public func set(_ name: MetricName, to value: Double) { metrics.set(name, to: value) }
}
