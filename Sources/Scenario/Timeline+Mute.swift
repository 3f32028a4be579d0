/// What a muted track sends (`mode` of `video.mute` / `audio.mute`): nothing, or what a
/// browser sends for a disabled track (W3C mediacapture-main 4.3.1 "enabled": black frames
/// for video, silence for audio), so the server keeps seeing a live stream.
public enum MuteMode: String, AllowedValues {
    /// No packets of the track until unmute.
    case stop
    /// Frames of a black picture at the track's settings (video only).
    case black
    /// Opus frames of silence, DTX off (audio only).
    case silence
}

extension TimelineAction.Kind {
    /// The track a mute or unmute acts on (nil for the other actions).
    public var mutedTrack: MutedTrack? {
        switch self {
        case .videoMute, .videoUnmute: .video
        case .audioMute, .audioUnmute: .audio
        default: nil
        }
    }

    /// Whether it mutes (rather than unmutes) its track.
    public var mutes: Bool { self == .videoMute || self == .audioMute }
}

/// The track of a mute action.
public enum MutedTrack: String, Hashable, Sendable {
    case video, audio

    /// The one mode beside "stop" this track can send while muted.
    var standIn: MuteMode { self == .video ? .black : .silence }
}

extension TimelineAction {
    /// The mode a mute uses: its own, or "stop".
    public var muteMode: MuteMode { mode ?? .stop }

    /// A mute or unmute: a mode its track can send ("stop", or "black" for video and
    /// "silence" for audio; unmute takes none), no settings of another action, and groups
    /// whose peers send that track.
    func validateMute(path: String, scenario: Scenario, groups: [Int]) throws(ScenarioError) {
        guard let track = action.mutedTrack else { return }
        let name = action.rawValue
        if let mode {
            try check(action.mutes, "\(path).mode", "\(name) takes no mode; the track resumes as it was before its mute")
            try check(mode == .stop || mode == track.standIn, "\(path).mode",
                      "\"\(mode.rawValue)\" is not a mode for \(track.rawValue); \(name) takes \"stop\" or \"\(track.standIn.rawValue)\"")
        }
        for (key, given) in [("resolution", resolution != nil), ("fps", fps != nil), ("bitrate_kbps", bitrateKbps != nil)] {
            try check(!given, "\(path).\(key)", "\(name) takes no \(key); a mute keeps the track's settings")
        }
        for index in groups {
            let group = scenario.groups[index]
            try check([.publisher, .pair, .echo].contains(group.role), "\(path).action",
                      "\(name): groups[\(index)] (role \(group.role.rawValue)) sends no media; only publisher, pair and echo peers do")
            let sends = track == .video ? group.video(on: scenario.target) != nil : group.audio != nil
            try check(sends, "\(path).action", "\(name): groups[\(index)] has \(track.rawValue) disabled")
        }
    }
}
