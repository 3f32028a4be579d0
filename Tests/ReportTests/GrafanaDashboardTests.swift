import Foundation
import Report
import WebRTCTestKit
import XCTest

/// deploy/grafana/rtcswarm.json reads only what `--metrics-listen` serves: every metric
/// its queries name is a family LiveFigures writes, so a renamed metric breaks this test
/// instead of a panel.
final class GrafanaDashboardTests: XCTestCase {
    func testEveryQueryNamesAMetricTheRunServes() throws {
        let data = try Data(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("deploy/grafana/rtcswarm.json"))
        let dashboard = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try XCTUnwrap(dashboard["panels"] as? [[String: Any]])
        let expressions = panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String } }
        XCTAssertEqual(expressions.count, 14, "11 panels, the setup panel with p50, p95 and p99, traffic sent and received")
        var figures = LiveFigures(scenario: "s", cell: "default", shard: "0/1", groups: ["g"])
        var worker = LiveFigures.Worker()
        worker.cpuSeconds = 1
        figures.workers = [0: worker]
        figures.server = ["cpu_pct": 1]  // SRS's and Janus's figures by their names (docs/metrics.md, Server side)
        let served = Set(figures.openMetrics.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.prefix { $0 != "{" }) })
        let named = expressions.flatMap { expression in
            expression.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init).filter { $0.hasPrefix("rtcswarm_") }
        }
        XCTAssertEqual(Set(named).subtracting(served), [], "queried but not served")
        XCTAssertTrue(Set(named).contains("rtcswarm_setup_seconds_bucket"))
    }
}
