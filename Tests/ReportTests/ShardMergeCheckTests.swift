import Metrics
import Report
import XCTest

/// `report merge` of `run --shard` reports: the N parts of one run, or a failed verdict
/// naming what is missing or failed (ReportMerge+Shards).
final class ShardMergeCheckTests: XCTestCase {
    private func shard(_ index: Int, of count: Int, setup: [Double], failed: Int = 0) -> RunReport {
        var cell = ReportFixtures.cell("default", setup: setup, loss: [0],
                                       thresholds: [ThresholdOutcome(expr: "setup_ms.p95 < 100", passed: true, measured: 1, abortOnFail: true)])
        cell.metrics.increment(.failedPeers, by: failed)
        var report = ReportFixtures.report(cells: [cell])
        report.shard = ShardInfo(index: index, count: count, clockErrorMs: 0.5, clockSource: "test")
        return report
    }

    func testTheShardsOfOneRunMergeWithThresholdsJudgedOnTheWholeAndAPerShardAbortDropped() throws {
        var second = shard(1, of: 2, setup: [300, 400])
        second.abortReason = "threshold setup_ms.p95 < 100 failed with abort_on_fail"
        let merged = try ReportMerge.merge([("b", second), ("a", shard(0, of: 2, setup: [10, 20, 30]))])
        XCTAssertNil(merged.shardProblems)
        XCTAssertEqual(merged.mergedShards?.map(\.index), [0, 1])
        XCTAssertNil(merged.shard)
        XCTAssertEqual(merged.cells[0].metrics.histograms[.setupMs]?.count, 5)
        // p95 of {10, 20, 30, 300, 400} is 400 (an average of the shards' p95s would be 215).
        XCTAssertEqual(merged.cells[0].thresholds[0].measured ?? 0, 400, accuracy: 400 * 0.01)
        XCTAssertFalse(merged.cells[0].thresholds[0].passed)
        XCTAssertEqual(merged.abortReason, "threshold setup_ms.p95 < 100 failed with abort_on_fail", "judged again on the merged figures")
    }

    func testAMissingOrFailedShardFailsTheVerdictNamingIt() throws {
        var broken = shard(2, of: 3, setup: [10])
        broken.abortReason = "worker 0 was killed by signal 9 at 3.0 s"
        let merged = try ReportMerge.merge([("a", shard(0, of: 3, setup: [10])), ("c", broken)], unreadable: [("b", "no such file")])
        XCTAssertEqual(merged.shardProblems, ["shard 1/3 missing", "shard 2/3 (c) could not run: worker 0 was killed by signal 9 at 3.0 s",
                                              "b: no report (no such file)"])
        XCTAssertFalse(merged.passed)
        XCTAssertTrue(MarkdownSummary.render(merged).contains("**FAILED: shard 1/3 missing; shard 2/3 (c) could not run"))
        XCTAssertTrue(JUnitReport.render(merged).contains("<testcase classname=\"run\" name=\"every shard merged\">\n      <failure message=\"shard 1/3 missing;"))
    }

    func testShardsOfDifferentRunsAreRefused() {
        var other = shard(1, of: 2, setup: [10])
        other.resolvedScenario = "{ name: \"demo\", duration_s: 5 }"
        for (sources, message) in [
            ([("a", shard(0, of: 2, setup: [1])), ("b", shard(0, of: 2, setup: [1]))], "shard 0/2 given twice: a and b"),
            ([("a", shard(0, of: 2, setup: [1])), ("b", shard(1, of: 3, setup: [1]))], "b is shard 1/3 but a is shard 0/2: shards of one run share N"),
            ([("a", shard(0, of: 2, setup: [1])), ("b", ReportFixtures.report(cells: []))],
             "b is a whole run but a is shard 0/2: merge the shards of one sharded run only"),
            ([("a", shard(0, of: 2, setup: [1])), ("b", other)],
             "b (shard 1/2) ran another scenario than a (its resolved scenario differs): every shard must run the same file with the same --set"),
        ] as [([ReportMerge.Source], String)] {
            XCTAssertThrowsError(try ReportMerge.merge(sources)) { XCTAssertEqual("\($0)", message) }
        }
    }
}
