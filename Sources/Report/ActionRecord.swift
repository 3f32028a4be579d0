import Metrics

/// One timeline action in report.json's `cells[].actions`: when, to whom, how many peers
/// did it, and what it cost as its receivers measured it, by figure name (`switch_ms`,
/// `unmute_first_frame_ms`, ...): a distribution's count and p50/p95/max, or a count.
public struct ActionRecord: Codable, Equatable, Sendable {
    /// Its index in the scenario's `timeline`.
    public var entry: Int
    public var atS: Double
    /// The group it names (index or name), or "all".
    public var group: String
    public var action: String
    /// Peers that carried it out (for pairs, both sides of each chosen call).
    public var peers: Int
    public var figures: [String: ActionFigure]

    public init(entry: Int, atS: Double, group: String, action: String, peers: Int, figures: [String: ActionFigure] = [:]) {
        self.entry = entry
        self.atS = atS
        self.group = group
        self.action = action
        self.peers = peers
        self.figures = figures
    }

    /// Each action's figures from the streams its receivers recorded: a resolution switch's
    /// `switch_ms`, `switch_freeze_ms`, `switch_frames_lost` and `switches_missed`, a mute's `frames_while_muted` ("stop") or
    /// `frames_during_mute` (the muted rate), an unmute's `unmute_first_packet_ms` and
    /// `unmute_first_frame_ms` and `unmutes_missed` (no frame came after it).
    public static func withFigures(_ actions: [ActionRecord], from peers: [PeerRecord]) -> [ActionRecord] {
        var values: [Int: [String: [Double]]] = [:]
        var counts: [Int: [String: Int]] = [:]
        for stream in peers.flatMap(\.streams) {
            for change in stream.switches ?? [] {
                if let ms = change.switchMs { values[change.entry, default: [:]][MetricName.switchMs.rawValue, default: []].append(ms) }
                if let ms = change.freezeMs { values[change.entry, default: [:]][MetricName.switchFreezeMs.rawValue, default: []].append(ms) }
                if let lost = change.framesLost {
                    values[change.entry, default: [:]][MetricName.switchFramesLost.rawValue, default: []].append(Double(lost))
                }
                counts[change.entry, default: [:]][MetricName.switchesMissed.rawValue, default: 0] += change.switchMs == nil ? 1 : 0
            }
            for mute in stream.mutes ?? [] {
                let name = mute.mode == "stop" ? MetricName.framesWhileMuted.rawValue : "frames_during_mute"
                counts[mute.entry, default: [:]][name, default: 0] += mute.framesDuring
                guard let unmute = mute.unmuteEntry else { continue }
                if let ms = mute.firstPacketMs { values[unmute, default: [:]][MetricName.unmuteFirstPacketMs.rawValue, default: []].append(ms) }
                if let ms = mute.firstFrameMs { values[unmute, default: [:]][MetricName.unmuteFirstFrameMs.rawValue, default: []].append(ms) }
                counts[unmute, default: [:]]["unmutes_missed", default: 0] += mute.firstFrameMs == nil ? 1 : 0
            }
        }
        return actions.map { action in
            var record = action
            for (name, samples) in values[action.entry] ?? [:] { record.figures[name] = ActionFigure(Histogram(samples)) }
            for (name, count) in counts[action.entry] ?? [:] { record.figures[name] = ActionFigure(count: count) }
            return record
        }
    }
}

extension ActionRecord {
    /// Two shards' records of the same timeline: each action's peers added, its figures
    /// measured again over both shards' `peers`.
    static func merged(_ a: [ActionRecord], _ b: [ActionRecord], peers: [PeerRecord]) -> [ActionRecord] {
        var byEntry: [Int: ActionRecord] = [:]
        for action in a + b {
            var record = byEntry[action.entry] ?? ActionRecord(entry: action.entry, atS: action.atS, group: action.group, action: action.action, peers: 0)
            record.peers += action.peers
            byEntry[action.entry] = record
        }
        return withFigures(byEntry.values.sorted { $0.entry < $1.entry }, from: peers)
    }
}

/// One cost figure of an action: how many values (or a bare count), and for a distribution
/// its median, 95th percentile and maximum.
public struct ActionFigure: Codable, Equatable, Sendable {
    public var count: Int
    public var p50: Double?
    public var p95: Double?
    public var max: Double?

    public init(count: Int, p50: Double? = nil, p95: Double? = nil, max: Double? = nil) {
        self.count = count
        self.p50 = p50
        self.p95 = p95
        self.max = max
    }

    init(_ histogram: Histogram) {
        self.init(count: histogram.count, p50: histogram.percentile(50), p95: histogram.percentile(95), max: histogram.max)
    }

    /// "p50 120 / p95 180 / max 210 ms (4)" or the bare count.
    public var text: String {
        guard let p50, let p95, let max else { return "\(count)" }
        return "p50 \(Format.number(p50)) / p95 \(Format.number(p95)) / max \(Format.number(max)) (\(count))"
    }
}
