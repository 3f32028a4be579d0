import Impairment
import RTCBase
/// One thing that happens during a run (`timeline:` in the scenario): at `at_s`, to a
/// seeded `share_pct` of one group's peers (or of every group's), spread over `spread_s`.
/// What each action cost is measured on the receiving side (docs/metrics.md, `switch_ms`).
public struct TimelineAction: Codable, Equatable, Sendable {
    public enum Kind: String, AllowedValues {
        /// Publishers switch to the shared encoder of the new settings, live, starting on a
        /// keyframe; no renegotiation.
        case videoResolution = "video.resolution"
        case videoFps = "video.fps"
        case videoBitrate = "video.bitrate_kbps"
        /// Stop and resume sending a track (`mode`: `Timeline+Mute.swift`); no renegotiation.
        case videoMute = "video.mute"
        case videoUnmute = "video.unmute"
        case audioMute = "audio.mute"
        case audioUnmute = "audio.unmute"
        /// The group's links take `profile` from `at_s` on: a change in their impairment
        /// schedule (`Timeline+Impairment.swift`).
        case impairment
        /// The peer closes politely (DTLS close_notify and the target's goodbye) for good
        /// (`Timeline+Connections.swift`).
        case leave
        /// As `leave`, then back `after_s` later with a new connection of its own.
        case rejoin
        /// Replaces `rate_per_s` peers a second (each leaves and at once rejoins), keeping
        /// the live count.
        case churn
        /// Pairs through a room: the caller restarts ICE (RFC 8445 9) with new credentials
        /// sent through the room, and both sides time it (`ice_restart_ms`).
        case iceRestart = "ice.restart"
    }

    /// Seconds from the run's start.
    public var atS: Double
    /// The group's index or name, or "all" (default "all").
    public var group: GroupSelector?
    public var action: Kind
    /// The share of the group's peers (for pairs: of its calls) that act, chosen by the
    /// scenario's seed (default 100).
    public var sharePct: Double?
    /// The chosen peers act at even steps over this many seconds (default 0: at once).
    public var spreadS: Double?
    public var resolution: Resolution?
    public var fps: Int?
    public var bitrateKbps: Int?
    /// What a muted track sends (mute actions only; default "stop").
    public var mode: MuteMode?
    /// For `impairment`: the profile (a preset name or a profile object), and which of the
    /// group's links it changes (default `receive`).
    public var profile: ImpairmentProfile?
    public var direction: ImpairmentDirection?
    /// `rejoin`: seconds from the leave to the new connection's start.
    public var afterS: Double?
    /// `churn`: peers (for pairs: calls) replaced a second in each group it names.
    public var ratePerS: Double?
    /// `churn`: how long it goes on (default: to the run's end).
    public var durationS: Double?
}

/// Which groups an action applies to: one by index or name, or all of them.
public enum GroupSelector: Codable, Equatable, Sendable {
    case all
    case index(Int)
    case name(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let index = try? container.decode(Int.self) {
            self = .index(index)
            return
        }
        let text = try container.decode(String.self)
        self = text == "all" ? .all : .name(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .all: try container.encode("all")
        case .index(let index): try container.encode(index)
        case .name(let name): try container.encode(name)
        }
    }

    /// The indexes of the groups it names in `groups` (empty when it names none).
    public func indexes(in groups: [PeerGroup]) -> [Int] {
        switch self {
        case .all: Array(groups.indices)
        case .index(let index): groups.indices.contains(index) ? [index] : []
        case .name(let name): groups.indices.filter { groups[$0].name == name }
        }
    }
}
