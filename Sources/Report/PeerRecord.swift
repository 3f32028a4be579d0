/// One peer's life: when each setup phase finished, how it ended, and what its streams saw.
/// Also one line of `peers.ndjson`, written as each peer ends.
public struct PeerRecord: Codable, Equatable, Sendable {
    public enum Outcome: String, Codable, Sendable {
        /// Set up and ran until its planned stop.
        case completed
        /// Never finished setup, or ended with an error.
        case failed
        /// Still running when the run was interrupted.
        case interrupted
    }

    public var id: String
    public var group: Int
    public var role: String
    /// Milliseconds from the run's start.
    public var startedAtMs: Double
    public var endedAtMs: Double
    /// `signaling_ms`, `ice_ms`, `dtls_ms`, `first_packet_ms`, `first_frame_ms`, `setup_ms`, `join_ms`;
    /// on OWT `login_ms`, `publish_ack_ms`, `subscribe_ack_ms`.
    public var phases: [String: Double]
    public var outcome: Outcome
    /// The phase it failed in (`signaling`, `ice`, `dtls`; `connected` for a call or a
    /// room membership lost after setup; `media` for media that did not arrive; `data` for data
    /// channels the other side declined or that never opened).
    public var failedPhase: String?
    /// In the server's own words where there are some ("SRS answered code 400").
    public var failureReason: String?
    /// `host`, `srflx`, `relay`, `prflx`.
    public var candidatePair: String?
    public var streams: [StreamRecord]
    /// What this peer sent, stream by stream (media peers).
    public var sentStreams: [SentStreamRecord]?
    /// `chromium` for a peer a browser ran (`groups[].client`), whose figures are the
    /// browser's own; nil for rtcswarm's peers.
    public var client: String?
    /// The browser's own figures: the other end's when the partner was a browser, the
    /// peer's own when a browser ran it.
    public var browser: BrowserStats?
    /// When (milliseconds from the run's start) and why the signaling connection ended
    /// while the call went on: the room server went away mid-call, yet media may continue.
    public var signalingLostAtMs: Double?
    public var signalingLostReason: String?
    /// A room member's messages: sent, received, lost and duplicated (`RoomMessageCounts`).
    public var messages: RoomMessageCounts?
    /// Its received media second by second while it ran (the last 600 s; nil without media).
    public var series: [PeerSecond]?
    /// It completed at a timeline `leave`, `rejoin` or `churn` ("left by timeline"), not
    /// at the end of its stay; a later connection of the same slot has its own record
    /// (its id ends `-gen<n>`).
    public var leftByTimeline: Bool?
    /// A room member: how many others joined its room (`other_joined`) and left it (`bye`)
    /// while it was there.
    public var othersJoined: Int?
    public var othersLeft: Int?
    /// An OWT participant's view of the conference: its login, logout, publications and the
    /// notifications it got, for `stream_notify_ms` and `participant_notify_ms`.
    public var conference: ConferenceLog?
    /// A pair's data channels, one record per channel (`groups[].data`).
    public var dataChannels: [DataChannelRecord]?

    /// Its one final state as `connected_peers` counts it: it finished setup (WebRTC peers:
    /// set up; members: joined a room, or logged in to an OWT portal) and did not fail
    /// afterwards. A failed peer is only in `failed_peers`; a peer interrupted before
    /// setup is in neither.
    public var endedConnected: Bool {
        outcome != .failed && (phases["setup_ms"] != nil || phases["join_ms"] != nil || phases["login_ms"] != nil)
    }

    public init(id: String, group: Int, role: String, startedAtMs: Double, endedAtMs: Double, phases: [String: Double] = [:],
                outcome: Outcome, failedPhase: String? = nil, failureReason: String? = nil, candidatePair: String? = nil,
                streams: [StreamRecord] = [], sentStreams: [SentStreamRecord]? = nil, browser: BrowserStats? = nil) {
        self.id = id
        self.group = group
        self.role = role
        self.startedAtMs = startedAtMs
        self.endedAtMs = endedAtMs
        self.phases = phases
        self.outcome = outcome
        self.failedPhase = failedPhase
        self.failureReason = failureReason
        self.candidatePair = candidatePair
        self.streams = streams
        self.sentStreams = sentStreams
        self.browser = browser
    }
}

/// One received stream's figures (METRICS.md, "Per received RTP stream").
public struct StreamRecord: Codable, Equatable, Sendable {
    public var kind: String
    public var codec: String
    /// The sender's SSRC (RFC 3550 8), to find the stream in a packet capture.
    public var ssrc: UInt32?
    public var packetsReceived: Int
    public var packetsExpected: Int
    public var lossPct: Double
    public var residualLossPct: Double
    public var burstMax: Int
    public var jitterMs: Double
    public var framesReceived: Int
    public var frameLossPct: Double
    public var fps: Double
    public var freezeCount: Int
    public var freezeMs: Double
    /// Freezes whose gap overlapped a stretch when the receiving worker's event loop ran
    /// late (docs/metrics.md "Whose fault is a bad figure"): the harness's, kept out of
    /// `freezeCount` and `freezeMs`. Nil in older reports.
    public var harnessFreezeCount: Int?
    /// Percent of received frames at the published resolution (video).
    public var resolutionSurvival: Double?
    /// Resolution (`1280x720`) -> frames received at it.
    public var resolutions: [String: Int]
    public var latencyMs: Double?
    /// On fully decoded (sampled) streams: mean PSNR of the Y plane against the regenerated
    /// reference, frames decoded, and frames whose frame code read back.
    public var psnrDb: Double?
    public var framesDecoded: Int?
    public var frameCodesRead: Int?
    /// On the same decoded frames: SSIM of the Y plane against the same references.
    public var ssim: SSIMFigures?
    /// On decoded (sampled) audio streams, played out as a jitter buffer would: 20 ms
    /// frames Opus concealed because their packet never came in time, and the percent of
    /// the frames played that carried the marker tone their timestamp says they should
    /// (docs/metrics.md `audio_concealed_frames`, `audio_marker_hit_pct`).
    public var concealedFrames: Int?
    public var markerHitPct: Double?
    /// The largest RFC 3550 jitter the stream reached, and its runs of lost packets
    /// (METRICS.md "burst": mean burst length = lost / episodes). Nil in older reports.
    public var jitterMaxMs: Double?
    public var lossEpisodes: Int?
    /// NACK feedback messages sent (RFC 4585 6.2.1).
    public var nacks: Int
    /// Sequence numbers those NACKs asked for. Nil in older reports.
    public var packetsNacked: Int?
    /// Packets that arrived after being NACKed (retransmissions that filled a gap;
    /// METRICS.md "residual loss"). Nil in reports written before it was recorded.
    public var packetsRecovered: Int?
    public var plis: Int
    /// Frames lost whose packets all arrived, but after the frame was given up (the
    /// receiver did not wait long enough), and the other frames lost: a packet never came.
    /// Nil in older reports.
    public var framesDroppedLate: Int?
    public var framesIncomplete: Int?
    /// The size changes its sender made (timeline `video.resolution`), each timed from the
    /// action to the first frame of the new size; nil when there were none.
    public var switches: [ResolutionSwitch]?
    /// Its sender's planned mutes of this track (timeline `video.mute` / `audio.mute`) as
    /// seen here; nil when there were none.
    public var mutes: [MuteRecord]?

    public init(kind: String, codec: String, packetsReceived: Int, packetsExpected: Int, lossPct: Double, residualLossPct: Double,
                burstMax: Int, jitterMs: Double, framesReceived: Int = 0, frameLossPct: Double = 0, fps: Double = 0,
                freezeCount: Int = 0, freezeMs: Double = 0, harnessFreezeCount: Int? = nil, resolutionSurvival: Double? = nil, resolutions: [String: Int] = [:],
                latencyMs: Double? = nil, psnrDb: Double? = nil, framesDecoded: Int? = nil, frameCodesRead: Int? = nil,
                nacks: Int = 0, jitterMaxMs: Double? = nil, lossEpisodes: Int? = nil, packetsNacked: Int? = nil, packetsRecovered: Int? = nil, plis: Int = 0, ssrc: UInt32? = nil,
                framesDroppedLate: Int? = nil, framesIncomplete: Int? = nil) {
        self.kind = kind
        self.codec = codec
        self.ssrc = ssrc
        self.packetsReceived = packetsReceived
        self.packetsExpected = packetsExpected
        self.lossPct = lossPct
        self.residualLossPct = residualLossPct
        self.burstMax = burstMax
        self.jitterMs = jitterMs
        self.framesReceived = framesReceived
        self.frameLossPct = frameLossPct
        self.fps = fps
        self.freezeCount = freezeCount
        self.freezeMs = freezeMs
        self.harnessFreezeCount = harnessFreezeCount
        self.resolutionSurvival = resolutionSurvival
        self.resolutions = resolutions
        self.latencyMs = latencyMs
        self.psnrDb = psnrDb
        self.framesDecoded = framesDecoded
        self.frameCodesRead = frameCodesRead
        self.nacks = nacks
        self.jitterMaxMs = jitterMaxMs
        self.lossEpisodes = lossEpisodes
        self.packetsNacked = packetsNacked
        self.packetsRecovered = packetsRecovered
        self.plis = plis
        self.framesDroppedLate = framesDroppedLate
        self.framesIncomplete = framesIncomplete
    }
}

extension StreamRecord {
    /// Frames received whose picture size was never read (`resolutions` holds the rest):
    /// `frames_unknown_size`, the "unknown" row of frames by resolution.
    public var framesOfUnknownSize: Int { max(0, framesReceived - resolutions.values.reduce(0, +)) }
}

extension PeerRecord {
    /// The report's warning when peers lost their signaling connection mid-call (a room
    /// server killed under a run): how many, and the first one's time and reason.
    public static func signalingLossWarning(_ records: [PeerRecord]) -> String? {
        let lost = records.compactMap { record in record.signalingLostAtMs.map { ($0, record.signalingLostReason ?? "") } }
        guard let first = lost.min(by: { $0.0 < $1.0 }) else { return nil }
        return "\(lost.count) of \(records.count) peer(s) lost their signaling connection mid-call, the first at "
            + "\(Format.number(first.0 / 1000)) s (\(first.1)); their media went on without it"
    }
}
