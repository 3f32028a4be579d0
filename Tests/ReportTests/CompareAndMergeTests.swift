import Metrics
@testable import Report
import XCTest

final class CompareAndMergeTests: XCTestCase {
    func testCompareFlagsRegressionsBeyondToleranceAndNoiseFloor() {
        let old = ReportFixtures.report(cells: [ReportFixtures.cell("default", setup: [100, 100, 100], loss: [1.0])])
        let worse = ReportFixtures.report(cells: [ReportFixtures.cell("default", setup: [150, 150, 150], loss: [1.2])])
        let comparison = ReportComparison(old: old, new: worse, tolerancePct: 10)
        let regressed = Set(comparison.regressions.map(\.figure))
        // setup +50 % and +50 ms: a regression. loss +20 % but only +0.2 points: under the floor.
        XCTAssertTrue(regressed.isSuperset(of: ["setup_ms.p50", "setup_ms.p95", "setup_ms.p99"]), "\(regressed)")
        XCTAssertFalse(regressed.contains("loss_pct.max"))
        let setupRow = comparison.rows.first { $0.figure == "setup_ms.p50" }
        XCTAssertEqual(setupRow?.changePct ?? 0, 50, accuracy: 0.2)
        XCTAssertTrue(comparison.markdown.contains("**3 regression(s).**"), comparison.markdown)

        let better = ReportComparison(old: worse, new: old, tolerancePct: 10)
        XCTAssertEqual(better.regressions, [], "improvements are not regressions")
    }

    func testCompareReportsCellsMissingOnOneSide() {
        let old = ReportFixtures.report(cells: [ReportFixtures.cell("vp8", setup: [1], loss: [])])
        let new = ReportFixtures.report(cells: [ReportFixtures.cell("h264", setup: [1], loss: [])])
        XCTAssertEqual(ReportComparison(old: old, new: new).unmatchedCells, ["h264", "vp8"])
    }

    func testMergeCombinesHistogramsExactlyAndJudgesThresholdsAgain() throws {
        let first = ReportFixtures.report(cells: [ReportFixtures.cell("default", setup: [100, 110, 120], loss: [0],
            thresholds: [ThresholdOutcome(expr: "setup_ms.max < 500", passed: true, measured: 120)])])
        let second = ReportFixtures.report(cells: [ReportFixtures.cell("default", setup: [900, 950], loss: [2],
            thresholds: [ThresholdOutcome(expr: "setup_ms.max < 500", passed: false, measured: 950)])])
        let merged = try ReportMerge.merge([first, second])
        let cell = merged.cells[0]
        let all = Histogram([100, 110, 120, 900, 950])
        XCTAssertEqual(cell.metrics.histograms[.setupMs], all)
        XCTAssertEqual(cell.metrics.value(at: MetricAddress(.setupMs, .p50)), all.percentile(50))
        XCTAssertEqual(cell.peers.count, 4)
        XCTAssertEqual(merged.workers.map(\.index), [0, 1])
        XCTAssertEqual(cell.thresholds, [ThresholdOutcome(expr: "setup_ms.max < 500", passed: false, measured: all.max)])
        // Time series add up per second.
        XCTAssertEqual(cell.timeSeries.map(\.connectedPeers), [0, 20, 40, 60, 80])
    }

    func testMergeRefusesShardsOfDifferentScenarios() {
        var other = ReportFixtures.report(cells: [])
        other.scenarioName = "other"
        XCTAssertThrowsError(try ReportMerge.merge([ReportFixtures.report(cells: []), other]))
        XCTAssertThrowsError(try ReportMerge.merge([]))
    }
}
