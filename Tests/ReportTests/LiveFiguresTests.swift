import Report
import XCTest

/// `--metrics-listen`'s text: the workers' figures summed, the setup and phase histograms'
/// cumulative buckets by group, the server's figures, OpenMetrics' naming and escaping.
final class LiveFiguresTests: XCTestCase {
    private func record(_ id: String, setupMs: Double?, failed: Bool = false, group: Int = 0) -> PeerRecord {
        PeerRecord(id: id, group: group, role: "pair", startedAtMs: 0, endedAtMs: 1000,
                   phases: setupMs.map { ["setup_ms": $0, "ice_ms": $0 / 2] } ?? [:], outcome: failed ? .failed : .completed)
    }

    func testWorkersAreSummedAndSetupTimesFallInCumulativeBuckets() {
        var figures = LiveFigures(scenario: "calls \"big\"", cell: "default", shard: "1/4", groups: ["callers", "idle"])
        var a = LiveFigures.Worker(), b = LiveFigures.Worker()
        (a.bytesSent, a.nacks, a.plis, a.freezes, a.lagP99Ms, a.cpuSeconds) = (1000, 3, 1, 2, 4, 1.25)
        (b.bytesSent, b.nacks, b.plis, b.lagP99Ms) = (500, 4, 5, 12.5)
        a.groups = [0: PeerStates(connecting: 2, connected: 10)]
        b.groups = [0: PeerStates(connected: 3), 1: PeerStates(failed: 1), 2: PeerStates(connected: 2)]
        figures.workers = [0: a, 1: b]
        figures.server = ["cpu_pct": 37.5, "recv kbps": 900]
        for (id, setup) in [("p0", 3.0), ("p1", 40), ("p2", 2000), ("p3", 20_000)] { figures.ended(record(id, setupMs: setup)) }
        figures.ended(record("p4", setupMs: nil, failed: true))
        figures.ended(record("p5", setupMs: 7, group: 2))
        let text = figures.openMetrics
        let labels = #"scenario="calls \"big\"",cell="default",shard="1/4""#
        let callers = labels + #",group="callers""#
        for line in [
            // Peers by state, each group summed over the workers.
            "rtcswarm_peers{\(callers),state=\"connected\"} 13",
            "rtcswarm_peers{\(callers),state=\"connecting\"} 2",
            "rtcswarm_peers{\(callers),state=\"failed\"} 0",
            "rtcswarm_peers{\(labels),group=\"idle\",state=\"connected\"} 0",
            "rtcswarm_peers{\(labels),group=\"idle\",state=\"failed\"} 1",
            "rtcswarm_peers{\(labels),group=\"2\",state=\"connected\"} 2",
            "rtcswarm_peers_ended_total{\(callers),outcome=\"completed\"} 4",
            "rtcswarm_peers_ended_total{\(callers),outcome=\"failed\"} 1",
            // A group nobody ended in yet is served at 0; a group the scenario does not name by its index.
            "rtcswarm_peers_ended_total{\(labels),group=\"idle\",outcome=\"completed\"} 0",
            "rtcswarm_peers_ended_total{\(labels),group=\"2\",outcome=\"completed\"} 1",
            "rtcswarm_setup_seconds_bucket{\(callers),le=\"0.005\"} 1",
            "rtcswarm_setup_seconds_bucket{\(callers),le=\"0.025\"} 1",
            "rtcswarm_setup_seconds_bucket{\(callers),le=\"0.05\"} 2",
            "rtcswarm_setup_seconds_bucket{\(callers),le=\"2.5\"} 3",
            "rtcswarm_setup_seconds_bucket{\(callers),le=\"10\"} 3",
            "rtcswarm_setup_seconds_bucket{\(callers),le=\"+Inf\"} 4",
            "rtcswarm_setup_seconds_sum{\(callers)} 22.043",
            "rtcswarm_setup_seconds_count{\(callers)} 4",
            "rtcswarm_setup_seconds_count{\(labels),group=\"idle\"} 0",
            // ICE took half of each setup: 1.5, 20, 1000 and 10000 ms.
            "rtcswarm_setup_phase_seconds_bucket{\(callers),phase=\"ice\",le=\"0.005\"} 1",
            "rtcswarm_setup_phase_seconds_bucket{\(callers),phase=\"ice\",le=\"0.025\"} 2",
            "rtcswarm_setup_phase_seconds_bucket{\(callers),phase=\"ice\",le=\"5\"} 3",
            "rtcswarm_setup_phase_seconds_sum{\(callers),phase=\"ice\"} 11.0215",
            "rtcswarm_setup_phase_seconds_count{\(callers),phase=\"dtls\"} 0",
            "rtcswarm_udp_sent_bytes_total{\(labels)} 1500",
            "rtcswarm_nacks_sent_total{\(labels)} 7",
            "rtcswarm_plis_sent_total{\(labels)} 6",
            "rtcswarm_video_freezes_total{\(labels)} 2",
            "rtcswarm_worker_lag_p99_seconds{\(labels),worker=\"1\"} 0.0125",
            "rtcswarm_worker_cpu_seconds_total{\(labels),worker=\"0\"} 1.25",
            "rtcswarm_server_cpu_pct{\(labels)} 37.5",
            "rtcswarm_server_recv_kbps{\(labels)} 900",
            "# TYPE rtcswarm_nacks_sent counter",
            "# UNIT rtcswarm_setup_seconds seconds",
            "# TYPE rtcswarm_server_cpu_pct gauge",
        ] {
            XCTAssertTrue(text.contains(line + "\n"), "missing \(line) in\n\(text)")
        }
        // Worker 1 never said its CPU time: no sample rather than a 0 that reads as idle.
        XCTAssertFalse(text.contains("rtcswarm_worker_cpu_seconds_total{\(labels),worker=\"1\"}"))
        XCTAssertTrue(text.hasSuffix("# EOF\n"))
    }
}
