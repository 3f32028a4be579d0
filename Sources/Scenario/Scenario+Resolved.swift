import RTCBase
/// Every optional scenario value with the default docs/scenarios.md states for it, applied
/// here once: the runtime reads these and never spells a default itself.

/// A group's video as it is sent (codec, size, rate, GOP), defaults applied.
public struct ResolvedVideo: Sendable, Equatable {
    public var codec: VideoSettings.Codec
    public var resolution: Resolution
    public var fps: Int
    public var bitrateKbps: Int
    /// Frames from one keyframe to the next.
    public var keyframeIntervalFrames: Int
    /// A user's file sent as it is (its header then says the codec and size).
    public var file: String?
}

/// A group's audio as it is sent (Opus), defaults applied.
public struct ResolvedAudio: Sendable, Equatable {
    public var channels: Int
    public var bitrateKbps: Int
}

extension VideoSettings {
    public static let defaultResolution = Resolution(width: 640, height: 360)
    public static let defaultFps = 30
    public static let defaultBitrateKbps = 800
    /// 10 s at 30 fps.
    public static let defaultKeyframeIntervalFrames = 300
}

extension PeerGroup {
    /// What the group sends: VP8 (H.264 on SRS), 640x360, 30 fps, 800 kbps, a keyframe
    /// every 300 frames; nil when video is off.
    public func video(on target: Target) -> ResolvedVideo? {
        let video = media?.video
        guard video?.enabled ?? true else { return nil }
        let fps = video?.fps ?? VideoSettings.defaultFps
        return ResolvedVideo(codec: video?.codec ?? (target.kind == .srs ? .h264 : .vp8),
                             resolution: video?.resolution ?? VideoSettings.defaultResolution, fps: fps,
                             bitrateKbps: video?.bitrateKbps ?? VideoSettings.defaultBitrateKbps,
                             keyframeIntervalFrames: video?.keyframeIntervalS.map { max(1, Int(($0 * Double(fps)).rounded())) }
                                 ?? VideoSettings.defaultKeyframeIntervalFrames,
                             file: video?.file)
    }

    /// Opus mono at 32 kbps; nil when audio is off.
    public var audio: ResolvedAudio? {
        let audio = media?.audio
        guard audio?.enabled ?? true else { return nil }
        return ResolvedAudio(channels: audio?.channels ?? 1, bitrateKbps: audio?.bitrateKbps ?? 32)
    }

    /// Who answers a pair's calls (rtcswarm by default).
    public var resolvedPartner: Partner { partner ?? .rtcswarm }
    /// What runs the group's peers (rtcswarm by default).
    public var resolvedClient: Client { client ?? .rtcswarm }
    public var isOneWay: Bool { oneWay ?? false }
    public var videoRtx: VideoSettings.Rtx { media?.video?.rtx ?? .auto }
    /// How long after setup what a peer receives may take to arrive (5 s).
    public var receiveTimeoutS: Double { media?.receiveTimeoutS ?? MediaSettings.defaultReceiveTimeoutS }
    /// The one address offered as a host candidate (127.0.0.1 by default).
    public var localAddress: String { ice?.localAddresses?.first ?? "127.0.0.1" }
    public var iceProfile: ICESettings.Profile { ice?.profile ?? .libwebrtc }
    public var iceServers: [IceServerConfig] { ice?.servers ?? [] }
    public var relayOnly: Bool { ice?.relayOnly ?? false }
    /// The stream's frame rate a browser partner is asked for (30 fps).
    public var videoFps: Int { media?.video?.fps ?? VideoSettings.defaultFps }
}

extension ThresholdSpec {
    /// Whether a failure stops the run (`abort_on_fail`, false by default).
    public var abortsRun: Bool { abortOnFail ?? false }
}

extension ExecutionPlan.Peer {
    /// The room a pair or member joins (`room` for the roles that have none).
    public var roomName: String { room ?? "room" }
    /// The stream a publisher publishes or a player plays (`livestream` by default).
    public var streamName: String { stream ?? StreamSettings.defaultName }
}

extension ReconnectSettings {
    /// Seconds from a failure to the next try (1 s).
    public var delay: Double { delayS ?? Self.defaultDelayS }
}

extension Scenario {
    /// Percent of received streams fully decoded (5).
    public var decodeSamplePct: Double { run?.decodeSamplePct ?? 5 }
    /// How long a worker's loop lets datagrams pile up between wake-ups (2 ms).
    public var wakeupBatching: Duration { .microseconds(Int(((run?.wakeupBatchingMs ?? 2) * 1000).rounded())) }
    public var thresholdList: [ThresholdSpec] { thresholds ?? [] }
}

extension Target {
    public var srsApp: String { srs?.app ?? "live" }
    /// The address SRS puts in its candidate (`?eip=`, 127.0.0.1).
    public var srsEip: String { srs?.eip ?? "127.0.0.1" }
    public var verifiesCertificates: Bool { !(insecureTls ?? false) }
    /// Members per room on the built-in server (2).
    public var roomCapacity: Int { room?.capacity ?? 2 }
    public var janusAdminSecret: String { janus?.adminSecret ?? JanusSettings.sampleAdminSecret }
    /// Texts a second each OWT member sends (none by default).
    public var owtTextRatePerS: Double { owt?.textRatePerS ?? 0 }
    /// Between two of an OWT peer's texts; nil: it sends none.
    public var owtTextInterval: Duration? {
        owtTextRatePerS > 0 ? .milliseconds(Int64((1000 / owtTextRatePerS).rounded())) : nil
    }
    /// The URL peers connect to: the OWT portal's for owt, else `url` (validation requires
    /// the one the kind needs).
    public var serverURL: String { (kind == .owt ? owt?.portal : url) ?? "" }
}


/// A group's data channels and messages, defaults applied.
public struct ResolvedData: Sendable, Equatable {
    public struct Channel: Sendable, Equatable {
        public enum Reliability: Sendable, Equatable {
            case reliable
            case maxRetransmits(Int)
            case maxPacketLifeMs(Int)
        }

        public var label: String
        public var ordered: Bool
        public var reliability: Reliability
        public var negotiatedId: Int?
        /// Partially reliable: its messages may be lost, so `dc_loss_pct` judges it.
        public var isReliable: Bool { reliability == .reliable }
    }

    public var channels: [Channel]
    public var sizeBytes: Int
    public var ratePerS: Double
    public var pattern: DataMessageSettings.Pattern
    /// Messages sent at once: `burst_size` for bursts, else 1.
    public var burstSize: Int
}

extension DataMessageSettings {
    /// A message's sequence number and send time (8 bytes each).
    public static let minimumSize = 16
    public static let defaultSizeBytes = 200
    public static let defaultRatePerS = 10.0
}

extension PeerGroup {
    /// Ordered, reliable channels carrying 200-byte messages echoed at 10 a second; nil
    /// without `data`.
    public var resolvedData: ResolvedData? {
        guard let data else { return nil }
        let channels = data.channels.map { channel in
            ResolvedData.Channel(label: channel.label, ordered: channel.ordered ?? true,
                                 reliability: channel.maxRetransmits.map { .maxRetransmits($0) }
                                     ?? channel.maxPacketLifeMs.map { .maxPacketLifeMs($0) } ?? .reliable,
                                 negotiatedId: channel.negotiatedId)
        }
        let message = data.message
        let pattern = message?.pattern ?? .echo
        return ResolvedData(channels: channels, sizeBytes: message?.sizeBytes ?? DataMessageSettings.defaultSizeBytes,
                            ratePerS: message?.ratePerS ?? DataMessageSettings.defaultRatePerS, pattern: pattern,
                            burstSize: pattern == .burst ? message?.burstSize ?? 2 : 1)
    }
}
