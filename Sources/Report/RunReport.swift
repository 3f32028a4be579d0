import Metrics

/// Everything a run produced: what ran (version, resolved scenario, seed), how it went
/// (interrupted, harness saturated), and per matrix cell the figures of METRICS.md, the
/// threshold outcomes, the time series and every peer. Written as `report.json`;
/// `schemaVersion` changes whenever a field changes meaning (2: the per-stream figures
/// split into `video.*` and `audio.*`, where 1's `loss_pct` mixed both kinds).
public struct RunReport: Codable, Equatable, Sendable {
    public static let currentSchemaVersion = 2

    public var schemaVersion: Int = RunReport.currentSchemaVersion
    public var rtcswarmVersion: String
    public var scenarioName: String
    /// The scenario after environment substitution and `--set` overrides, as JSON.
    public var resolvedScenario: String
    public var seed: UInt64
    /// Wall-clock start, ISO 8601 UTC.
    public var startedAt: String
    public var durationS: Double
    /// Stopped by SIGINT/SIGTERM before the planned end.
    public var interrupted: Bool
    /// Set when the harness saturated (METRICS.md): the figures say nothing about the server.
    public var invalidReason: String?
    /// Why the run could not start or ended early (target unreachable, a threshold with abort_on_fail).
    public var abortReason: String?
    public var cells: [CellReport]
    public var workers: [WorkerReport]
    /// What the run could not do as asked but that did not stop it (encoders that fell
    /// behind real time, say), in words for the reader.
    public var warnings: [String]?
    /// The target's name and version as it told them ("SRS 7.0.18", "Janus 1.1.2", or this
    /// rtcswarm for the built-in room server); nil when it does not say (other room
    /// servers, WHIP/WHEP endpoints) or did not answer.
    public var targetVersion: String?
    /// The ICE profile the peers followed (`ice.profile`: "libwebrtc", "rfc8445"; groups
    /// that differ are listed with a comma), which `ice_ms` and `setup_ms` depend on.
    public var iceProfile: String?
    /// The coordinator process's own cost when the peers ran in `rtcswarm worker` children
    /// (nil when they ran in its process: the worker row is then the whole tool).
    public var coordinator: CoordinatorReport?
    /// The shard this report is one part of (`run --shard I/N`); nil for a whole run.
    public var shard: ShardInfo?
    /// A merged report's shards, in index order (`report merge`); nil otherwise.
    public var mergedShards: [ShardInfo]?
    /// Why a merge of shards is no verdict: a shard missing, given twice, or failed, each
    /// named; nil when every shard was there and ran.
    public var shardProblems: [String]?

    public init(rtcswarmVersion: String, scenarioName: String, resolvedScenario: String, seed: UInt64, startedAt: String,
                durationS: Double, interrupted: Bool = false, invalidReason: String? = nil, abortReason: String? = nil,
                cells: [CellReport], workers: [WorkerReport]) {
        self.rtcswarmVersion = rtcswarmVersion
        self.scenarioName = scenarioName
        self.resolvedScenario = resolvedScenario
        self.seed = seed
        self.startedAt = startedAt
        self.durationS = durationS
        self.interrupted = interrupted
        self.invalidReason = invalidReason
        self.abortReason = abortReason
        self.cells = cells
        self.workers = workers
    }

    /// Every threshold held, nothing was interrupted, the harness did not saturate, and a
    /// merge had every shard.
    public var passed: Bool {
        !interrupted && invalidReason == nil && abortReason == nil && shardProblems == nil
            && cells.allSatisfy { $0.thresholds.allSatisfy(\.passed) }
    }
}

/// One run of a matrix (or the only run): its parameters and its figures.
public struct CellReport: Codable, Equatable, Sendable {
    /// `vp8 640x360 800kbps clean`; `default` without a matrix.
    public var label: String
    public var parameters: [String: String]
    public var metrics: MetricSet
    public var thresholds: [ThresholdOutcome]
    public var timeSeries: [TimeSample]
    public var peers: [PeerRecord]
    /// Server-side samples on the same time axis (SRS summaries, Janus admin), when available.
    public var serverSamples: [ServerSample]
    /// Per room, by name, the members' messages and the server's relays (rooms with members only).
    public var rooms: [RoomMessageSummary]?
    /// Each timeline action, the peers that did it and its cost at the receivers (nil without a timeline).
    public var actions: [ActionRecord]?
    /// rtcswarm's peers beside the Chromium ones of the same role, figure by figure (nil
    /// without `client: "chromium"` groups).
    public var calibration: [CalibrationRow]?

    public init(label: String, parameters: [String: String] = [:], metrics: MetricSet, thresholds: [ThresholdOutcome] = [],
                timeSeries: [TimeSample] = [], peers: [PeerRecord] = [], serverSamples: [ServerSample] = []) {
        self.label = label
        self.parameters = parameters
        self.metrics = metrics
        self.thresholds = thresholds
        self.timeSeries = timeSeries
        self.peers = peers
        self.serverSamples = serverSamples
    }
}

/// A threshold's verdict with the figure it was judged on (nil when nothing was measured).
public struct ThresholdOutcome: Codable, Equatable, Sendable {
    public var expr: String
    public var passed: Bool
    public var measured: Double?
    public var abortOnFail: Bool
    /// Not in the scenario: the verdict's floor added it (`failed_peers == 0`,
    /// `connected_peers > 0` where no threshold names that figure).
    public var implied: Bool?

    public init(expr: String, passed: Bool, measured: Double?, abortOnFail: Bool = false, implied: Bool? = nil) {
        self.expr = expr
        self.passed = passed
        self.measured = measured
        self.abortOnFail = abortOnFail
        self.implied = implied
    }

    /// The expression as reports name it, marked when implied.
    public var title: String { implied == true ? "\(expr) (implied)" : expr }
}

/// The run at one moment (one sample a second).
public struct TimeSample: Codable, Equatable, Sendable {
    public var tS: Double
    public var connectingPeers: Int
    public var connectedPeers: Int
    public var failedPeers: Int
    public var receiveKbps: Double
    public var sendKbps: Double
    public var lagP99Ms: Double
    /// Over the second before `tS`, from the workers' running receive totals: first-pass
    /// loss in percent of the packets expected in it (nil when none was), NACKs sent per
    /// second, and complete video frames per second per live video stream (nil without video).
    public var lossPct: Double?
    public var nacksPerS: Double?
    public var fps: Double?
    /// The busiest worker's CPU over the second before, in percent of one core (its process's
    /// CPU time; with one worker in the runner's process, the whole tool's).
    public var cpuPct: Double?
    /// Room messages received in the second before (the workers' samples in it) and their
    /// relay times' median and 95th percentile (`relay_ms`); nil without a message.
    public var relayMessages: Int?
    public var relayP50Ms: Double?
    public var relayP95Ms: Double?
    /// The counts behind `lossPct` and `fps` over the same second (RTP packets expected and
    /// lost on the first pass, live video streams), so a merge of shards recomputes them
    /// exactly; nil in older reports.
    public var packetsExpected: Int?
    public var packetsLostFirstPass: Int?
    public var liveVideoStreams: Int?
    /// Video freezes that began in the second before (docs/metrics.md `freeze_count`).
    public var freezes: Int?
    /// The interarrival jitter (RFC 3550 A.8) of the streams being received at the
    /// sample, median and 95th percentile over the streams, video and audio apart; nil
    /// where none of that kind was.
    public var videoJitterP50Ms: Double?
    public var videoJitterP95Ms: Double?
    public var audioJitterP50Ms: Double?
    public var audioJitterP95Ms: Double?

    /// Sets the relay figures from the second's relay times.
    public mutating func relays(_ histogram: Histogram) {
        guard histogram.count > 0 else { return (relayMessages, relayP50Ms, relayP95Ms) = (nil, nil, nil) }
        (relayMessages, relayP50Ms, relayP95Ms) = (histogram.count, histogram.percentile(50), histogram.percentile(95))
    }

    public init(tS: Double, connectingPeers: Int, connectedPeers: Int, failedPeers: Int, receiveKbps: Double,
                sendKbps: Double, lagP99Ms: Double, lossPct: Double? = nil, nacksPerS: Double? = nil, fps: Double? = nil) {
        self.lossPct = lossPct
        self.nacksPerS = nacksPerS
        self.fps = fps
        self.tS = tS
        self.connectingPeers = connectingPeers
        self.connectedPeers = connectedPeers
        self.failedPeers = failedPeers
        self.receiveKbps = receiveKbps
        self.sendKbps = sendKbps
        self.lagP99Ms = lagP99Ms
    }
}

/// One sample of the server's own figures.
public struct ServerSample: Codable, Equatable, Sendable {
    public var tS: Double
    /// Name -> value: `cpu_pct`, `mem_mb`, `clients`, `streams`, `recv_kbps`, `send_kbps`.
    public var values: [String: Double]

    public init(tS: Double, values: [String: Double]) {
        self.tS = tS
        self.values = values
    }
}

/// What one worker process says about itself (METRICS.md, "The harness watching itself").
public struct WorkerReport: Codable, Equatable, Sendable {
    public var index: Int
    public var peers: Int
    public var cpuPct: Double
    public var rssMB: Double
    public var lagP50Ms: Double
    public var lagP99Ms: Double
    public var lagMaxMs: Double
    public var socketDrops: Int
    public var sendErrors: Int
    /// The share of `cpuPct` the shared encoders took (encoding once per track).
    public var encoderCpuPct: Double?
    /// RTP packets the worker's peers sent (first transmissions) and received.
    public var packetsSent: Int?
    public var packetsReceived: Int?
    /// CPU microseconds per RTP packet sent or received, beyond the shared encoders.
    public var cpuUsPerPacket: Double?
    /// CPU milliseconds per second of a peer's life (start to end, summed over the
    /// worker's peers), beyond the shared encoders: the cost of one more peer.
    public var cpuMsPerPeerSecond: Double?
    /// UDP payload bytes the worker's sockets sent and received over the run (nil in older reports).
    public var udpBytesSent: Int?
    public var udpBytesReceived: Int?

    public init(index: Int, peers: Int, cpuPct: Double, rssMB: Double, lagP50Ms: Double, lagP99Ms: Double, lagMaxMs: Double,
                socketDrops: Int, sendErrors: Int, encoderCpuPct: Double? = nil, packetsSent: Int? = nil, packetsReceived: Int? = nil,
                cpuUsPerPacket: Double? = nil, cpuMsPerPeerSecond: Double? = nil, udpBytesSent: Int? = nil, udpBytesReceived: Int? = nil) {
        self.udpBytesSent = udpBytesSent
        self.udpBytesReceived = udpBytesReceived
        self.index = index
        self.peers = peers
        self.cpuPct = cpuPct
        self.rssMB = rssMB
        self.lagP50Ms = lagP50Ms
        self.lagP99Ms = lagP99Ms
        self.lagMaxMs = lagMaxMs
        self.socketDrops = socketDrops
        self.sendErrors = sendErrors
        self.encoderCpuPct = encoderCpuPct
        self.packetsSent = packetsSent
        self.packetsReceived = packetsReceived
        self.cpuUsPerPacket = cpuUsPerPacket
        self.cpuMsPerPeerSecond = cpuMsPerPeerSecond
    }

}

/// What the coordinator process (the one the user started: targets, progress, server stats
/// polling, merging the workers' figures) spent over the whole run.
public struct CoordinatorReport: Codable, Equatable, Sendable {
    public var cpuPct: Double
    public var rssMB: Double

    public init(cpuPct: Double, rssMB: Double) {
        self.cpuPct = cpuPct
        self.rssMB = rssMB
    }
}
