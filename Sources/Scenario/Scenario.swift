import RTCBase
import Impairment

/// A scenario file: which target to hit, with what crowd, for how long, and what counts
/// as a pass. Keys are snake_case in the file (`duration_s`); docs/scenarios.md lists
/// every key with its type, default and allowed values.
public struct Scenario: Codable, Equatable, Sendable {
    public var name: String
    public var description: String?
    /// Seeds every random choice (impairment, credentials, jitter); default 1.
    public var seed: UInt64?
    /// How long the run lasts, in seconds.
    public var durationS: Double
    public var target: Target
    public var groups: [PeerGroup]
    public var matrix: Matrix?
    public var thresholds: [ThresholdSpec]?
    public var run: RunSettings?
    /// What happens during the run, and when (`Timeline.swift`).
    public var timeline: [TimelineAction]?

    public var effectiveSeed: UInt64 { seed ?? 1 }
}

/// Where the peers go.
public struct Target: Codable, Equatable, Sendable {
    public enum Kind: String, AllowedValues {
        case builtinRoom = "builtin-room", room, srs, whip, whep, janus, owt
        /// Two peers calling each other with no server: JSON lines on a TCP socket (`url`
        /// `tcp://host:port`; call i's caller listens on port + i, its callee connects).
        case tcpP2P = "tcp-p2p"
    }

    public var kind: Kind
    /// The server's URL; not used by `builtin-room`, required by the others.
    public var url: String?
    public var room: RoomSettings?
    public var srs: SRSSettings?
    public var janus: JanusSettings?
    public var owt: OWTSettings?
    /// Accept self-signed certificates on https:// and wss:// targets (default false).
    public var insecureTls: Bool?
    /// Sent as `Authorization: Bearer <token>` (WHIP/WHEP).
    public var bearerToken: String?
    /// For `whip`: the WHEP URL players play from, so that one run publishes through WHIP
    /// and plays through WHEP on servers with both (Pion-based SFUs, MediaMTX).
    public var whepUrl: String?
}

/// The room protocol (PROTOCOLS.md section 3).
public struct RoomSettings: Codable, Equatable, Sendable {
    public enum Transport: String, AllowedValues { case socketio, websocket }

    public var transport: Transport?
    /// The event the others in a room receive when someone joins (`other_joined`, or
    /// `otherjoin` as in the widely copied public server).
    public var otherJoinedEvent: String?
    /// Members per room on the built-in server (default 2).
    public var capacity: Int?
    /// The built-in server's limit on messages per second from one client address (all
    /// a run's peers share 127.0.0.1, so there is none unless set).
    public var maxRatePerAddress: Double?
    /// Room names are `<prefix><n>` (default `room-`).
    public var roomPrefix: String?
}

public struct SRSSettings: Codable, Equatable, Sendable {
    public enum API: String, AllowedValues { case rtc, whipWhep = "whip-whep" }

    /// SRS's app name (default `live`).
    public var app: String?
    /// `rtc` for /rtc/v1/publish/ and /play/, `whip-whep` for SRS's WHIP/WHEP endpoints.
    public var api: API?
    /// Sent as `?eip=` so SRS announces this address as its candidate (default 127.0.0.1).
    public var eip: String?
}

public struct JanusSettings: Codable, Equatable, Sendable {
    public enum Plugin: String, AllowedValues { case echotest, videoroom }

    public var plugin: Plugin
    /// VideoRoom room id (created when absent).
    public var roomId: UInt64?
    /// Janus's admin API (`http://host:7088/admin`), sampled for its session count.
    public var adminUrl: String?
    /// The admin API's `admin_secret` (default: Janus's sample, `janusoverlord`).
    public var adminSecret: String?

    public static let sampleAdminSecret = "janusoverlord"
}

/// An OWT conference (Intel Open WebRTC Toolkit, PROTOCOLS.md section 6): its portal, and
/// either a token or the service credentials that ask its REST API for one per peer.
public struct OWTSettings: Codable, Equatable, Sendable {
    /// The portal (`http://host:8080`); `https` for a TLS portal.
    public var portal: String
    /// A token from the REST API, used by every peer (OWT's REST tokens are single-use:
    /// give `service_id` and `service_key` for more than one peer).
    public var token: String?
    public var serviceId: String?
    public var serviceKey: String?
    /// The REST API (default: the portal's address).
    public var restUrl: String?
    /// The conference room the REST API issues tokens for.
    public var room: String?
    /// The portal's Engine.IO version: 3 for the Socket.IO 2.x portals OWT shipped (default),
    /// 4 for newer ones.
    public var engineIo: Int?
    /// Texts each `member` sends to everyone per second (timestamped: others record
    /// `relay_ms`); default none.
    public var textRatePerS: Double?
}

/// One kind of peer and how many of them.
public struct PeerGroup: Codable, Equatable, Sendable {
    public enum Role: String, AllowedValues {
        /// Sends media to a server (SRS, WHIP, Janus VideoRoom).
        case publisher
        /// Receives a published stream (SRS, WHEP, Janus VideoRoom).
        case player
        /// A caller and a callee meeting in one room; `count` is the number of calls.
        case pair
        /// Joins a room and exchanges signaling only (room server stress).
        case member
        /// Sends media to an echo service (Janus EchoTest) and receives it back.
        case echo
    }

    /// Who is at the other end of a `pair` call.
    public enum Partner: String, AllowedValues {
        /// Another rtcswarm peer (both sides measured by rtcswarm).
        case rtcswarm
        /// Headless Chromium, one page for the group, serving as the callee of every call
        /// and reporting its own `getStats()` (built-in room server only).
        case chromium
        /// Any other client that joins the same rooms on the target room server (your
        /// application's, a bot, another WebRTC stack); rtcswarm plays one side only.
        case external
    }

    /// What runs the group's peers.
    public enum Client: String, AllowedValues {
        /// rtcswarm's own WebRTC stack, measured by rtcswarm.
        case rtcswarm
        /// Headless Chromium, one browser per group with one RTCPeerConnection per peer,
        /// reporting its own `getStats()` and setup timings beside the native peers'
        /// (publishers and players of SRS, WHIP and WHEP targets).
        case chromium
    }

    public var name: String?
    public var role: Role
    /// What runs this group's peers (default `rtcswarm`).
    public var client: Client?
    /// For `pair`: who answers the calls (default `rtcswarm`).
    public var partner: Partner?
    /// For `pair`: the caller only sends and the callee only receives (default false). With
    /// two or more workers, callers and callees run in different workers, so each worker's
    /// CPU and memory are a publisher's or a player's cost alone.
    public var oneWay: Bool?
    /// How many peers (for `pair`, how many calls): the most that run at once.
    public var count: Int
    public var arrival: Arrival?
    /// Seconds after the run starts that this group begins arriving (default 0).
    public var startS: Double?
    /// Seconds each peer stays after it arrives (default: until the run ends).
    public var durationS: Double?
    public var media: MediaSettings?
    public var ice: ICESettings?
    public var stream: StreamSettings?
    public var impairment: ImpairmentSettings?
    /// A publisher, player or echo peer whose connection failed tries again (a new
    /// connection with its own record) instead of staying down.
    public var reconnect: ReconnectSettings?
    /// Data channels opened once DTLS is up, and the messages sent on them (pairs).
    public var data: DataSettings?
}

/// How a peer that lost (or never got) its connection tries again: up to `attempts`
/// times, `delay_s` after each failure, while its planned stay lasts.
public struct ReconnectSettings: Codable, Equatable, Sendable {
    public var attempts: Int
    public var delayS: Double?

    public static let defaultDelayS = 1.0
}

/// Network impairment between each peer of a group and its socket (the kernel here has no
/// netem). Each direction takes a preset name (`lossy-wifi`), a profile object
/// (`{ loss_pct: 5, delay_ms: 40 }`) or a schedule (`[{ at_ms: 0, profile: "clean" }, ...]`).
public struct ImpairmentSettings: Codable, Equatable, Sendable {
    /// Applied to what the peer sends.
    public var send: ImpairmentSchedule?
    /// Applied to what the peer receives.
    public var receive: ImpairmentSchedule?
}

/// How peers arrive: at a fixed rate, or following stages that ramp up and down.
public struct Arrival: Codable, Equatable, Sendable {
    /// New peers (pairs) per second (default 50).
    public var ratePerS: Double?
    /// k6-style stages: ramp linearly to `target` peers over `duration_s`.
    public var stages: [Stage]?

    public struct Stage: Codable, Equatable, Sendable {
        public var durationS: Double
        public var target: Int
    }
}

public struct MediaSettings: Codable, Equatable, Sendable {
    public var video: VideoSettings?
    public var audio: AudioSettings?
    /// Seconds after setup by which each kind a peer receives must have arrived (default 5);
    /// a kind that has not fails the peer ("no video received").
    public var receiveTimeoutS: Double?

    public static let defaultReceiveTimeoutS = 5.0
}

public struct VideoSettings: Codable, Equatable, Sendable {
    public enum Codec: String, AllowedValues { case vp8, vp9, h264, h265, av1 }
    /// How lost video packets are resent (RFC 4588 RTX): `auto` offers RTX and falls back
    /// to plain resends when the receiver keeps NACKing what RTX resent, `on` keeps RTX,
    /// `off` offers no RTX.
    public enum Rtx: String, AllowedValues { case auto, on, off }

    /// Default true; false sends no video.
    public var enabled: Bool?
    public var codec: Codec?
    public var resolution: Resolution?
    public var fps: Int?
    public var bitrateKbps: Int?
    /// Seconds from one keyframe to the next, unless a receiver asks for one sooner
    /// (PLI/FIR). Default: 300 frames (10 s at 30 fps).
    public var keyframeIntervalS: Double?
    /// The user's content instead of the test pattern: a .y4m (encoded with `codec`), or an
    /// .ivf (VP8/VP9) or Annex-B .h264 file sent as it is; looped.
    public var file: String?
    /// Default `auto`.
    public var rtx: Rtx?
}

public struct AudioSettings: Codable, Equatable, Sendable {
    /// Default true; false sends no audio.
    public var enabled: Bool?
    public var bitrateKbps: Int?
    /// 1 (mono, default) or 2 (stereo).
    public var channels: Int?
}

public struct ICESettings: Codable, Equatable, Sendable {
    /// Whose ICE timers and nomination the peers follow: `libwebrtc` (default: what Chromium
    /// and the mobile SDKs do, a pair used on its first answered check) or `rfc8445` (Ta
    /// 50 ms, 500 ms retransmission, regular nomination).
    public enum Profile: String, AllowedValues { case libwebrtc, rfc8445 }

    public var profile: Profile?
    public var servers: [IceServerConfig]?
    /// Use only relay candidates (through TURN).
    public var relayOnly: Bool?
    /// The local addresses that become host candidates (default ["127.0.0.1"]).
    public var localAddresses: [String]?
}

public struct StreamSettings: Codable, Equatable, Sendable {
    /// The stream publishers publish and players play (default `livestream`).
    public var name: String?
    /// Each publisher gets its own stream `<name>-<n>`; players are spread over them.
    public var perPublisher: Bool?
    /// OWT players: a publisher's `forward` stream (round robin, default) or the room's `mixed` one.
    public var from: OWTSource?

    public enum OWTSource: String, AllowedValues { case forward, mixed }

    public init(name: String? = nil, perPublisher: Bool? = nil) {
        self.name = name
        self.perPublisher = perPublisher
    }
}

/// Values that expand one scenario into several runs compared side by side.
public struct Matrix: Codable, Equatable, Sendable {
    public var codec: [VideoSettings.Codec]?
    public var resolution: [Resolution]?
    public var bitrateKbps: [Int]?
    /// Impairments applied to what every peer receives, so each media path crosses one
    /// impaired link; a group's own `impairment.receive` is replaced in that run.
    public var impairment: [ImpairmentSchedule]?
}

public struct RunSettings: Codable, Equatable, Sendable {
    /// Worker processes (default: one per core).
    public var workers: Int?
    /// Percent of received streams that are fully decoded (default 5, at least one stream).
    public var decodeSamplePct: Double?
    /// Milliseconds a worker lets datagrams pile up between wake-ups once its peers are up
    /// (default 2; 0 reads each the moment it comes).
    public var wakeupBatchingMs: Double?
    /// Where the coordinator serves live OpenMetrics figures, `ADDRESS:PORT` (the command's
    /// `--metrics-listen` wins over it).
    public var metricsListen: String?
}
