import PeerCore
import RTCBase
import Report
import Scenario

/// What one received stream shows of its sender's planned mutes: the frames inside each,
/// the time from each unmute to the first packet and the first frame, and which gaps
/// between frames the mutes explain (not freezes, not lost frames).
struct MuteObserver {
    /// A planned mute on this run's clock.
    struct Window: Sendable, Equatable {
        var track: MutedTrack
        var from: Instant
        var until: Instant?
        var mode: MuteMode
        var entry: Int
        var unmuteEntry: Int?
    }

    private let windows: [Window]
    private let isVideo: Bool
    private var framesDuring: [Int]
    private var firstPacket: [Instant?]
    private var firstFrame: [Instant?]

    /// The windows of `isVideo`'s track among `windows`.
    init(windows: [Window], isVideo: Bool) {
        let mine = windows.filter { ($0.track == .video) == isVideo }
        self.windows = mine.sorted { $0.from < $1.from }
        self.isVideo = isVideo
        framesDuring = Array(repeating: 0, count: mine.count)
        firstPacket = Array(repeating: nil, count: mine.count)
        firstFrame = Array(repeating: nil, count: mine.count)
    }

    mutating func observe(_ frame: ReceivedFrame) {
        let grace = Duration.milliseconds(Int64(MuteRecord.graceMs))
        for (index, window) in windows.enumerated() {
            if frame.lastArrival >= window.from + grace, window.until.map({ frame.lastArrival < $0 }) ?? true {
                framesDuring[index] += 1
            }
            guard let until = window.until, window.unmuteEntry != nil, frame.lastArrival >= until else { continue }
            if firstPacket[index] == nil { firstPacket[index] = max(frame.firstArrival, until) }
            if firstFrame[index] == nil, frame.isKeyframe || !isVideo { firstFrame[index] = frame.lastArrival }
        }
    }

    /// Whether a gap between two frames overlaps a planned mute (it is not a freeze).
    func explains(gapFrom start: Instant, to end: Instant) -> Bool {
        windows.contains { $0.from < end && ($0.until.map { $0 > start } ?? true) }
    }

    /// How long, between `start` and `end`, the sender planned to send nothing ("stop"
    /// mutes): frames that were never sent are not lost.
    func stopped(from start: Instant, to end: Instant) -> Duration {
        windows.filter { $0.mode == .stop }.reduce(.zero) { total, window in
            let from = max(window.from, start), until = min(window.until ?? end, end)
            return until > from ? total + (until - from) : total
        }
    }

    /// One record per mute; nil when none was planned.
    var records: [MuteRecord]? {
        guard !windows.isEmpty else { return nil }
        return windows.enumerated().map { index, window in
            MuteRecord(entry: window.entry, unmuteEntry: window.unmuteEntry, mode: window.mode.rawValue, framesDuring: framesDuring[index],
                       firstPacketMs: window.until.flatMap { until in firstPacket[index].map { $0.milliseconds(since: until) } },
                       firstFrameMs: window.until.flatMap { until in firstFrame[index].map { $0.milliseconds(since: until) } })
        }
    }
}
