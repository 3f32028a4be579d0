import EventLoop
import Report

/// Whether the harness rather than the server or the network made a run's figures
/// (docs/metrics.md "Whose fault is a bad figure"): the reason the run is invalid, naming
/// the figure, or nil.
public enum HarnessVerdict {
    /// The share of all freezes above which the harness's own (`harness_freeze_count`)
    /// make the run invalid.
    public static let harnessFreezeShareLimit = 0.10
    /// A worker whose loop ran this late once can freeze by itself every stream it sends
    /// or receives: a gap is a frame interval plus the stall, and the freeze limit is the
    /// interval plus this margin. A stalled sender shows no stall in its receivers' worker,
    /// so their freezes stay in `freeze_count`; this bound is what flags them.
    public static let lagMaxLimit = ReceivedStreamObserver.freezeMargin

    /// The harness's freezes come first: they say most precisely what the stall did.
    public static func invalidReason(workers: [WorkerReport], streams: [StreamRecord]) -> String? {
        let video = streams.filter { $0.kind == "video" }
        let harness = video.reduce(0) { $0 + ($1.harnessFreezeCount ?? 0) }
        let network = video.reduce(0) { $0 + $1.freezeCount }
        let bound = LoopStalls.bound.milliseconds
        let all = harness + network
        if harness > 0, Double(harness) > harnessFreezeShareLimit * Double(all) {
            return "harness_freeze_count \(harness) of \(all) freezes (\(format(Double(harness * 100) / Double(all))) %) "
                + "came while the receiving worker's event loop was stalled over \(Int(bound)) ms, more than "
                + "\(Int(harnessFreezeShareLimit * 100)) %"
        }
        if let worst = workers.max(by: { $0.lagP99Ms < $1.lagP99Ms }), worst.lagP99Ms > bound {
            return "event-loop lag p99 \(format(worst.lagP99Ms)) ms in worker \(worst.index) exceeds \(Int(bound)) ms"
        }
        if network > 0, let worst = workers.max(by: { $0.lagMaxMs < $1.lagMaxMs }), worst.lagMaxMs > lagMaxLimit.milliseconds {
            return "event-loop lag max \(format(worst.lagMaxMs)) ms in worker \(worst.index) exceeds \(Int(lagMaxLimit.milliseconds)) ms: "
                + "a stall that long freezes by itself the streams that worker sends, so the run's \(network) freezes (freeze_count) "
                + "may be the harness's"
        }
        if let dropping = workers.first(where: { $0.socketDrops > 0 }) {
            return "worker \(dropping.index) dropped \(dropping.socketDrops) datagrams in full socket buffers"
        }
        return nil
    }

    private static func format(_ value: Double) -> String { ScenarioRunner.format(value) }
}
