import Report
import XCTest

/// `--metrics-listen`'s text: the workers' figures summed, the setup histogram's
/// cumulative buckets, OpenMetrics' naming and escaping.
final class LiveFiguresTests: XCTestCase {
    private func record(_ id: String, setupMs: Double?, failed: Bool = false) -> PeerRecord {
        PeerRecord(id: id, group: 0, role: "pair", startedAtMs: 0, endedAtMs: 1000, phases: setupMs.map { ["setup_ms": $0] } ?? [:],
                   outcome: failed ? .failed : .completed)
    }

    func testWorkersAreSummedAndSetupTimesFallInCumulativeBuckets() {
        var figures = LiveFigures(scenario: "calls \"big\"", cell: "default", shard: "1/4")
        var a = LiveFigures.Worker(), b = LiveFigures.Worker()
        (a.connected, a.connecting, a.bytesSent, a.nacks, a.lagP99Ms) = (10, 2, 1000, 3, 4)
        (b.connected, b.failed, b.bytesSent, b.nacks, b.lagP99Ms) = (5, 1, 500, 4, 12.5)
        figures.workers = [0: a, 1: b]
        for (id, setup) in [("p0", 3.0), ("p1", 40), ("p2", 2000), ("p3", 20_000)] { figures.ended(record(id, setupMs: setup)) }
        figures.ended(record("p4", setupMs: nil, failed: true))
        let text = figures.openMetrics
        let labels = #"scenario="calls \"big\"",cell="default",shard="1/4""#
        for line in [
            "rtcswarm_peers{\(labels),state=\"connected\"} 15",
            "rtcswarm_peers{\(labels),state=\"connecting\"} 2",
            "rtcswarm_peers{\(labels),state=\"failed\"} 1",
            "rtcswarm_peers_ended_total{\(labels),outcome=\"completed\"} 4",
            "rtcswarm_peers_ended_total{\(labels),outcome=\"failed\"} 1",
            "rtcswarm_setup_seconds_bucket{\(labels),le=\"0.005\"} 1",
            "rtcswarm_setup_seconds_bucket{\(labels),le=\"0.025\"} 1",
            "rtcswarm_setup_seconds_bucket{\(labels),le=\"0.05\"} 2",
            "rtcswarm_setup_seconds_bucket{\(labels),le=\"2.5\"} 3",
            "rtcswarm_setup_seconds_bucket{\(labels),le=\"10\"} 3",
            "rtcswarm_setup_seconds_bucket{\(labels),le=\"+Inf\"} 4",
            "rtcswarm_setup_seconds_sum{\(labels)} 22.043",
            "rtcswarm_setup_seconds_count{\(labels)} 4",
            "rtcswarm_udp_sent_bytes_total{\(labels)} 1500",
            "rtcswarm_nacks_sent_total{\(labels)} 7",
            "rtcswarm_worker_lag_p99_seconds{\(labels),worker=\"1\"} 0.0125",
            "# TYPE rtcswarm_nacks_sent counter",
            "# UNIT rtcswarm_setup_seconds seconds",
        ] {
            XCTAssertTrue(text.contains(line + "\n"), "missing \(line) in\n\(text)")
        }
        XCTAssertTrue(text.hasSuffix("# EOF\n"))
    }
}
