extension LiveFigures {
    /// OpenMetrics 1.0 text: counters as `_total`, histograms with cumulative `le` buckets
    /// in seconds, the ended peers' figures by `group`, the workers' by `worker`, the
    /// server's own figures as gauges, a `# EOF` at the end.
    public var openMetrics: String {
        var text = OpenMetricsText(labels: labels)
        let all = workers.values
        func sum(_ value: (Worker) -> Int) -> Int { all.reduce(0) { $0 + value($1) } }
        let states = all.reduce(into: [Int: PeerStates]()) { byGroup, worker in
            for (group, counts) in worker.groups { byGroup[group] = (byGroup[group] ?? PeerStates()).adding(counts) }
        }
        // Every group from the start: series that exist at 0.
        let groups = Set(groupLabels.indices).union(ended.keys).union(states.keys).sorted()
        text.family("rtcswarm_peers", "gauge", "Peers now connecting or connected, and failed so far, by group, over every worker.")
        for group in groups {
            let counts = states[group] ?? PeerStates()
            for (state, value) in [("connecting", counts.connecting), ("connected", counts.connected), ("failed", counts.failed)] {
                text.sample("rtcswarm_peers", [("group", groupLabel(group)), ("state", state)], String(value))
            }
        }
        text.family("rtcswarm_peers_ended", "counter", "Peers whose record is in, by group and outcome.")
        for group in groups {
            let label = ("group", groupLabel(group))
            text.sample("rtcswarm_peers_ended_total", [label, ("outcome", "completed")], String(ended[group]?.completed ?? 0))
            text.sample("rtcswarm_peers_ended_total", [label, ("outcome", "failed")], String(ended[group]?.failed ?? 0))
        }
        text.family("rtcswarm_setup_seconds", "histogram", "Setup time (join to connected) of the peers that have ended.", unit: "seconds")
        for group in groups { text.histogram("rtcswarm_setup_seconds", [("group", groupLabel(group))], ended[group]?.phases["setup_ms"] ?? Buckets()) }
        text.family("rtcswarm_setup_phase_seconds", "histogram", "Each setup phase (docs/metrics.md) of the peers that have ended.", unit: "seconds")
        for group in groups {
            for phase in Self.phases {
                text.histogram("rtcswarm_setup_phase_seconds", [("group", groupLabel(group)), ("phase", phase.label)],
                               ended[group]?.phases[phase.record] ?? Buckets())
            }
        }
        for (name, help, value) in [
            ("rtcswarm_udp_sent_bytes", "UDP payload bytes the peers sent.", sum(\.bytesSent)),
            ("rtcswarm_udp_received_bytes", "UDP payload bytes the peers received.", sum(\.bytesReceived)),
            ("rtcswarm_rtp_packets_expected", "RTP packets expected over the received streams (RFC 3550 A.3).", sum(\.packetsExpected)),
            ("rtcswarm_rtp_packets_lost_first_pass", "RTP packets not received on the first pass (lost, or only after a NACK).",
             sum(\.packetsLostFirstPass)),
            ("rtcswarm_nacks_sent", "NACK feedback messages sent (RFC 4585 6.2.1).", sum(\.nacks)),
            ("rtcswarm_plis_sent", "PLI feedback messages sent (RFC 4585 6.3.1).", sum(\.plis)),
            ("rtcswarm_video_frames_received", "Complete video frames received.", sum(\.videoFrames)),
            ("rtcswarm_video_freezes", "Video freezes seen by the receivers (docs/metrics.md freeze_count).", sum(\.freezes)),
        ] {
            text.family(name, "counter", help, unit: name.hasSuffix("_bytes") ? "bytes" : nil)
            text.sample(name + "_total", [], String(value))
        }
        let indexes = workers.keys.sorted()
        text.family("rtcswarm_worker_lag_p99_seconds", "gauge", "Each worker's event-loop lag, 99th percentile over its last second.", unit: "seconds")
        for index in indexes {
            text.sample("rtcswarm_worker_lag_p99_seconds", [("worker", String(index))], Self.number((workers[index]?.lagP99Ms ?? 0) / 1000))
        }
        text.family("rtcswarm_worker_cpu_seconds", "counter", "CPU seconds each worker's process has spent (rate() of it: cores busy).", unit: "seconds")
        for index in indexes {
            guard let cpu = workers[index]?.cpuSeconds else { continue }
            text.sample("rtcswarm_worker_cpu_seconds_total", [("worker", String(index))], Self.number(cpu))
        }
        for name in server.keys.sorted() {
            let metric = "rtcswarm_server_" + Self.metricName(name)
            text.family(metric, "gauge", "The server's own figure \(name), as its API last answered (docs/metrics.md, Server side).")
            text.sample(metric, [], Self.number(server[name] ?? 0))
        }
        return text.finished
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A figure's name as an OpenMetrics metric name: letters, digits and `_` only.
    static func metricName(_ name: String) -> String {
        String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }
}

/// OpenMetrics lines with the run's labels on every sample.
struct OpenMetricsText {
    let labels: [(String, String)]
    private var lines: [String] = []

    init(labels: [(String, String)]) { self.labels = labels }

    mutating func family(_ name: String, _ type: String, _ help: String, unit: String? = nil) {
        lines.append("# TYPE \(name) \(type)")
        if let unit { lines.append("# UNIT \(name) \(unit)") }
        lines.append("# HELP \(name) \(help)")
    }

    mutating func sample(_ name: String, _ extra: [(String, String)], _ value: String) {
        let text = (labels + extra).map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",")
        lines.append("\(name){\(text)} \(value)")
    }

    /// A histogram's cumulative buckets, sum and count (OpenMetrics 1.0, "Histogram").
    mutating func histogram(_ name: String, _ extra: [(String, String)], _ buckets: LiveFigures.Buckets) {
        var cumulative = 0
        for (index, bound) in LiveFigures.setupBuckets.enumerated() {
            cumulative += buckets.counts[index]
            sample(name + "_bucket", extra + [("le", LiveFigures.number(bound))], String(cumulative))
        }
        sample(name + "_bucket", extra + [("le", "+Inf")], String(buckets.count))
        sample(name + "_sum", extra, LiveFigures.number(buckets.sum))
        sample(name + "_count", extra, String(buckets.count))
    }

    var finished: String { (lines + ["# EOF", ""]).joined(separator: "\n") }

    /// OpenMetrics label value escaping: backslash, quote, newline.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
