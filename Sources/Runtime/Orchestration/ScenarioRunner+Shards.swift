import EventLoop
import Foundation
import Report
import RTCBase
import Scenario

/// What a shard of a run does beyond a whole run: it waits for the common start so that
/// every shard's timeline lines up, and its report says which shard it is and how far its
/// clock can be trusted.
extension ScenarioRunner {
    /// How long from now the first peers of cell `index` are due: the time children need
    /// to start, or, for the first cell of a run given `--start-at`, until then. A start
    /// already past (a pod scheduled late) starts at once, with a warning, since its peers
    /// then run late against the other shards'.
    func startDelay(cell index: Int, workers: Int, now: Date = Date()) -> (delay: Duration, warning: String?) {
        let minimum: Duration = .milliseconds(workers > 1 ? 800 : 100)
        guard index == 0, let startAt = options.startAt else { return (minimum, nil) }
        let wait = startAt.timeIntervalSince(now)
        if wait * 1000 < minimum.milliseconds {
            let late = String(format: "%.1f", -wait)
            return (minimum, "--start-at \(Self.rfc3339(startAt)) was \(late) s ago when this shard was ready: its peers ran that late "
                             + "against the other shards'")
        }
        return (.milliseconds(Int64((wait * 1000).rounded())), nil)
    }

    /// The report's record of the shard, nil for a whole run.
    var shardInfo: ShardInfo? {
        guard let shard = options.shard else { return nil }
        let clock = WallClockError.estimate()
        return ShardInfo(index: shard.index, count: shard.count, startAt: options.startAt.map(Self.rfc3339),
                         clockErrorMs: clock.errorMs, clockSource: clock.source)
    }

    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
