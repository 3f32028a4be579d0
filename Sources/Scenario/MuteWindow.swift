/// A stretch in which a sender's track is planned muted: from a mute to the unmute that
/// ends it (or to the next mute of the same track, which changes the mode, or to the run's
/// end). What a receiver makes of it is measured from it (`unmute_first_frame_ms`).
public struct MuteWindow: Equatable, Sendable {
    public var track: MutedTrack
    public var mode: MuteMode
    /// The mute's index in the scenario's timeline, and when it acts (from the run's start).
    public var entry: Int
    public var fromMs: Int64
    /// When the mute ends (nil: it lasts to the end of the run), and the unmute's index
    /// when an unmute ends it.
    public var untilMs: Int64?
    public var unmuteEntry: Int?

    public init(track: MutedTrack, mode: MuteMode, entry: Int, fromMs: Int64, untilMs: Int64? = nil, unmuteEntry: Int? = nil) {
        self.track = track
        self.mode = mode
        self.entry = entry
        self.fromMs = fromMs
        self.untilMs = untilMs
        self.unmuteEntry = unmuteEntry
    }

    /// The windows of one sender's actions (in time order): each mute opens one on its
    /// track; an unmute of that track closes it, and an unmute of a track not muted does
    /// nothing.
    public static func windows(of actions: [PlannedAction]) -> [MuteWindow] {
        var windows: [MuteWindow] = []
        var open: [MutedTrack: Int] = [:]
        for planned in actions {
            guard let track = planned.action.action.mutedTrack else { continue }
            if let index = open.removeValue(forKey: track) {
                windows[index].untilMs = planned.atMs
                if !planned.action.action.mutes { windows[index].unmuteEntry = planned.entry }
            }
            guard planned.action.action.mutes else { continue }
            open[track] = windows.count
            windows.append(MuteWindow(track: track, mode: planned.action.muteMode, entry: planned.entry, fromMs: planned.atMs))
        }
        return windows
    }
}
