import Metrics
import Report
import XCTest

/// The phases of summary.md and report.html: percentiles from the cell's histograms, the
/// slowest 5 % from its peers, and the phase that makes the tail slow named.
final class PhaseBreakdownTests: XCTestCase {
    /// 100 peers: 95 set up in 10 + 20 + 30 ms (+ 10 ms before the offer), 5 spend 500 ms in ICE.
    static func cell() -> CellReport {
        var metrics = MetricSet()
        let peers = (0..<100).map { index -> PeerRecord in
            let ice = index >= 95 ? 500.0 : 20
            let phases = ["signaling_ms": 10, "ice_ms": ice, "dtls_ms": 30, "setup_ms": 70 - 20 + ice, "first_frame_ms": 40.0]
            for (phase, value) in phases { metrics.record(value, in: MetricName(rawValue: phase)!) }
            return PeerRecord(id: "p\(index)", group: 0, role: "player", startedAtMs: 0, endedAtMs: 10_000, phases: phases, outcome: .completed)
        }
        return CellReport(label: "default", metrics: metrics, peers: peers)
    }

    func testTheSlowestFivePercentAreSetBesideTheMedianAndIceIsNamed() throws {
        let phases = try XCTUnwrap(PhaseBreakdown(Self.cell()))
        XCTAssertEqual(phases.rows.map(\.phase), [.signalingMs, .iceMs, .dtlsMs, .firstFrameMs, .setupMs], "first_packet_ms was not recorded")
        let ice = try XCTUnwrap(phases.row(.iceMs))
        XCTAssertEqual(try XCTUnwrap(ice.p50), 20, accuracy: 0.1)
        XCTAssertEqual(try XCTUnwrap(ice.p95), 20, accuracy: 0.1, "the 95th of 100 values is still a fast one")
        XCTAssertEqual(ice.p99, 500)
        XCTAssertEqual(ice.max, 500)
        XCTAssertEqual(ice.tailMean, 500)
        XCTAssertEqual(phases.tailPeers, 5)
        XCTAssertEqual(phases.tailFromMs, 550)
        XCTAssertEqual(phases.row(.dtlsMs)?.tailMean, 30)
        let dominant = try XCTUnwrap(phases.dominantTailPhase)
        XCTAssertEqual(dominant.phase, .iceMs)
        XCTAssertEqual(dominant.excessMs, 480, accuracy: 0.1)
    }

    func testSummaryAndHTMLShowEveryPercentileAndTheStackedTail() {
        let report = ReportFixtures.report(cells: [Self.cell()])
        let summary = MarkdownSummary.render(report)
        XCTAssertTrue(summary.contains("| `ice_ms` | 20 | 20 | 500 | 500 | 500 |"), summary)
        XCTAssertTrue(summary.contains("| `setup_ms` | 70 | 70 | 550 | 550 | 550 |"), summary)
        XCTAssertTrue(summary.contains("the 5 peer(s) with the largest `setup_ms` (from 550 ms)"), summary)
        XCTAssertTrue(summary.contains("`ice_ms` dominates the tail, 480 ms above its median"), summary)
        let html = HTMLReport.render(report)
        let chart = html.components(separatedBy: "Setup phases: median vs slowest 5 %")[1].components(separatedBy: "</svg>")[0]
        // Median: signaling, ice, dtls, other setup (10 ms), first frame; the tail the same five.
        XCTAssertEqual(chart.components(separatedBy: "class=\"segment\"").count - 1, 10)
        XCTAssertTrue(chart.contains("<title>slowest 5 % (mean) ice_ms: 500</title>"), chart)
        XCTAssertTrue(chart.contains("<title>median (p50) other setup: 10</title>"), chart)
        XCTAssertTrue(html.contains("<td>first_frame_ms</td><td>40</td><td>40</td><td>40</td><td>40</td><td>40</td>"))
    }
}
