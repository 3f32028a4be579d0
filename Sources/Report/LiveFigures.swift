/// What the coordinator knows while a run goes on, for `--metrics-listen`: the workers'
/// latest samples and the records of the peers that have ended. Rendered as OpenMetrics
/// text (`openMetrics`), the format Prometheus scrapes; pure, so it is tested on numbers.
public struct LiveFigures: Sendable {
    /// A worker's running figures (its latest sample).
    public struct Worker: Sendable, Equatable {
        public var connecting = 0, connected = 0, failed = 0
        public var lagP99Ms = 0.0
        public var bytesSent = 0, bytesReceived = 0
        public var packetsExpected = 0, packetsLostFirstPass = 0, nacks = 0, videoFrames = 0

        public init() {}
    }

    /// Prometheus's default buckets, in seconds.
    public static let setupBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// Labels on every sample: scenario, cell and shard.
    public var labels: [(String, String)]
    public var workers: [Int: Worker] = [:]
    public private(set) var endedCompleted = 0, endedFailed = 0
    /// Ended peers' setup times: count per bucket of `setupBuckets` (not cumulative), sum, count.
    public private(set) var setupCounts: [Int]
    public private(set) var setupSum = 0.0, setupCount = 0

    public init(scenario: String, cell: String, shard: String) {
        labels = [("scenario", scenario), ("cell", cell), ("shard", shard)]
        setupCounts = Array(repeating: 0, count: Self.setupBuckets.count + 1)
    }

    /// An ended peer's record: its outcome, and its setup time when it connected.
    public mutating func ended(_ record: PeerRecord) {
        if record.outcome == .failed { endedFailed += 1 } else { endedCompleted += 1 }
        guard let setupMs = record.phases["setup_ms"] else { return }
        let seconds = setupMs / 1000
        setupCounts[Self.setupBuckets.firstIndex { seconds <= $0 } ?? Self.setupBuckets.count] += 1
        setupSum += seconds
        setupCount += 1
    }

    /// OpenMetrics 1.0 text: counters as `_total`, the setup histogram with cumulative
    /// `le` buckets, a `# EOF` at the end.
    public var openMetrics: String {
        let all = workers.values
        func sum(_ value: (Worker) -> Int) -> Int { all.reduce(0) { $0 + value($1) } }
        var lines: [String] = []
        func family(_ name: String, _ type: String, _ help: String, unit: String? = nil) {
            lines.append("# TYPE \(name) \(type)")
            if let unit { lines.append("# UNIT \(name) \(unit)") }
            lines.append("# HELP \(name) \(help)")
        }
        func sample(_ name: String, _ extra: [(String, String)] = [], _ value: String) {
            let text = (labels + extra).map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",")
            lines.append("\(name){\(text)} \(value)")
        }
        family("rtcswarm_peers", "gauge", "Peers now connecting or connected, and failed so far, over every worker.")
        for (state, value) in [("connecting", sum(\.connecting)), ("connected", sum(\.connected)), ("failed", sum(\.failed))] {
            sample("rtcswarm_peers", [("state", state)], String(value))
        }
        family("rtcswarm_peers_ended", "counter", "Peers whose record is in, by outcome.")
        sample("rtcswarm_peers_ended_total", [("outcome", "completed")], String(endedCompleted))
        sample("rtcswarm_peers_ended_total", [("outcome", "failed")], String(endedFailed))
        family("rtcswarm_setup_seconds", "histogram", "Setup time (join to first frame) of the peers that have ended.", unit: "seconds")
        var cumulative = 0
        for (index, bound) in Self.setupBuckets.enumerated() {
            cumulative += setupCounts[index]
            sample("rtcswarm_setup_seconds_bucket", [("le", Self.number(bound))], String(cumulative))
        }
        sample("rtcswarm_setup_seconds_bucket", [("le", "+Inf")], String(setupCount))
        sample("rtcswarm_setup_seconds_sum", [], Self.number(setupSum))
        sample("rtcswarm_setup_seconds_count", [], String(setupCount))
        for (name, help, value) in [
            ("rtcswarm_udp_sent_bytes", "UDP payload bytes the peers sent.", sum(\.bytesSent)),
            ("rtcswarm_udp_received_bytes", "UDP payload bytes the peers received.", sum(\.bytesReceived)),
            ("rtcswarm_rtp_packets_expected", "RTP packets expected over the received streams (RFC 3550 A.3).", sum(\.packetsExpected)),
            ("rtcswarm_rtp_packets_lost_first_pass", "RTP packets not received on the first pass (lost, or only after a NACK).",
             sum(\.packetsLostFirstPass)),
            ("rtcswarm_nacks_sent", "NACK feedback messages sent (RFC 4585 6.2.1).", sum(\.nacks)),
            ("rtcswarm_video_frames_received", "Complete video frames received.", sum(\.videoFrames)),
        ] {
            family(name, "counter", help, unit: name.hasSuffix("_bytes") ? "bytes" : nil)
            sample(name + "_total", [], String(value))
        }
        family("rtcswarm_worker_lag_p99_seconds", "gauge", "Each worker's event-loop lag, 99th percentile over its last second.", unit: "seconds")
        for index in workers.keys.sorted() {
            sample("rtcswarm_worker_lag_p99_seconds", [("worker", String(index))], Self.number((workers[index]?.lagP99Ms ?? 0) / 1000))
        }
        return (lines + ["# EOF", ""]).joined(separator: "\n")
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// OpenMetrics label value escaping: backslash, quote, newline.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
