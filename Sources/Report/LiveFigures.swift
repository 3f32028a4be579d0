/// What the coordinator knows while a run goes on, for `--metrics-listen`: the workers'
/// latest samples, the records of the peers that have ended (by group) and the server's
/// own latest figures. Rendered as OpenMetrics text (`openMetrics`, in
/// `LiveFigures+OpenMetrics.swift`), the format Prometheus scrapes; pure, so it is
/// tested on numbers.
public struct LiveFigures: Sendable {
    /// A worker's running figures (its latest sample).
    public struct Worker: Sendable, Equatable {
        /// The worker's peers by state, by group index.
        public var groups: [Int: PeerStates] = [:]
        public var lagP99Ms = 0.0
        public var bytesSent = 0, bytesReceived = 0
        public var packetsExpected = 0, packetsLostFirstPass = 0, nacks = 0, plis = 0, videoFrames = 0, freezes = 0
        /// CPU seconds the worker's process has spent; nil until it says.
        public var cpuSeconds: Double?

        public init() {}
    }

    /// Counts per bucket of `setupBuckets` (not cumulative), with their sum and count.
    public struct Buckets: Sendable, Equatable {
        public private(set) var counts = Array(repeating: 0, count: LiveFigures.setupBuckets.count + 1)
        public private(set) var sum = 0.0, count = 0

        mutating func add(seconds: Double) {
            counts[LiveFigures.setupBuckets.firstIndex { seconds <= $0 } ?? LiveFigures.setupBuckets.count] += 1
            sum += seconds
            count += 1
        }
    }

    /// The ended peers of one group.
    public struct Ended: Sendable, Equatable {
        public var completed = 0, failed = 0
        /// By phase name as in the record (`setup_ms`, `ice_ms`, ...).
        public var phases: [String: Buckets] = [:]
    }

    /// Prometheus's default buckets, in seconds.
    public static let setupBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// The setup phases served, as the record names them, and their `phase` label.
    public static let phases: [(record: String, label: String)] = [
        ("signaling_ms", "signaling"), ("ice_ms", "ice"), ("dtls_ms", "dtls"), ("first_packet_ms", "first_packet"), ("first_frame_ms", "first_frame"),
    ]

    /// Labels on every sample: scenario, cell and shard.
    public var labels: [(String, String)]
    /// Each group's `group` label, by index (its name, else its index).
    public let groupLabels: [String]
    public var workers: [Int: Worker] = [:]
    /// The server's own latest figures (docs/metrics.md, "Server side"), by name.
    public var server: [String: Double] = [:]
    public private(set) var ended: [Int: Ended] = [:]

    public init(scenario: String, cell: String, shard: String, groups: [String] = []) {
        labels = [("scenario", scenario), ("cell", cell), ("shard", shard)]
        groupLabels = groups
    }

    /// An ended peer's record: its outcome, and its setup phases when it had them.
    public mutating func ended(_ record: PeerRecord) {
        var group = ended[record.group] ?? Ended()
        if record.outcome == .failed { group.failed += 1 } else { group.completed += 1 }
        for name in ["setup_ms"] + Self.phases.map(\.record) {
            guard let ms = record.phases[name] else { continue }
            group.phases[name, default: Buckets()].add(seconds: ms / 1000)
        }
        ended[record.group] = group
    }

    func groupLabel(_ index: Int) -> String { groupLabels.indices.contains(index) ? groupLabels[index] : String(index) }
}
