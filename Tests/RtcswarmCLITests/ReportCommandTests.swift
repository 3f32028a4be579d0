import Foundation
import Metrics
import Report
import RtcswarmCLI
import WebRTCTestKit
import XCTest

final class ReportCommandTests: XCTestCase {
    private func writeReport(setup: [Double], _ change: (inout RunReport) -> Void = { _ in }) throws -> String {
        var metrics = MetricSet()
        for value in setup { metrics.record(value, in: .setupMs) }
        var report = RunReport(rtcswarmVersion: Rtcswarm.version, scenarioName: "s", resolvedScenario: "{}", seed: 1,
                               startedAt: "2026-11-29T00:00:00Z", durationS: 10,
                               cells: [CellReport(label: "default", metrics: metrics,
                                                  thresholds: [ThresholdOutcome(expr: "setup_ms.max < 10000", passed: true, measured: setup.max())])],
                               workers: [])
        change(&report)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("r-\(UUID().uuidString)")
        try ReportWriter.write(report, to: folder)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder.path
    }

    func testCompareExitsFourOnARegressionAndZeroOtherwise() throws {
        let fast = try writeReport(setup: [100, 100])
        let slow = try writeReport(setup: [300, 300])
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["report", "compare", fast, slow], console: captured.console), .thresholdFailed)
        XCTAssertTrue(captured.out.contains("| default | `setup_ms.p50` | 100 | 300 | +200 % | **REGRESSION** |"), captured.out)
        XCTAssertEqual(Rtcswarm.main(["report", "compare", slow, fast], console: CapturedConsole().console), .success)
    }

    /// compare.html, in NEW's folder: both runs named, every figure of both side by side,
    /// the regressions (setup got 3 times slower) first and marked, an improvement (less
    /// loss) plain.
    func testCompareWritesAPageWithBothRunsFiguresAndTheRegressionsMarked() throws {
        let fast = try writeReport(setup: [100, 100]) { $0.cells[0].metrics.record(2, in: .videoLossPct) }
        let slow = try writeReport(setup: [300, 300]) {
            $0.cells[0].metrics.record(1, in: .videoLossPct)
            $0.startedAt = "2026-11-30T00:00:00Z"
        }
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["report", "compare", fast, slow], console: captured.console), .thresholdFailed)
        let page = URL(fileURLWithPath: slow).appendingPathComponent("compare.html")
        XCTAssertTrue(captured.out.contains(page.path), captured.out)
        let html = try String(contentsOf: page, encoding: .utf8)
        XCTAssertTrue(html.contains("<td>OLD</td><td>s</td><td>2026-11-29T00:00:00Z</td>"), html)
        XCTAssertTrue(html.contains("<td>NEW</td><td>s</td><td>2026-11-30T00:00:00Z</td>"), html)
        XCTAssertTrue(html.contains("<p class=\"verdict fail\">3 regression(s)</p>"), html)
        let regression = "<tr class=\"fail\"><td>default</td><td>setup_ms.p50</td><td>100</td><td>300</td><td>+200 %</td><td>REGRESSION</td></tr>"
        let improvement = "<tr><td>default</td><td>video.loss_pct.mean</td><td>2</td><td>1</td><td>-50 %</td><td></td></tr>"
        let (first, second) = (try XCTUnwrap(html.range(of: regression)), try XCTUnwrap(html.range(of: improvement), html))
        XCTAssertLessThan(first.lowerBound, second.lowerBound, "regressions come first")
        XCTAssertFalse(html.contains("<script"), "readable with scripts off: there are none")
    }

    /// Issue 21 item 6: an interrupted, aborted or invalid run is no baseline match on either
    /// side, and runs of different scenarios are compared only with --allow-different; each
    /// refusal exits 3 (could not run) saying why, and prints no "No regressions".
    func testCompareRefusesAnUnfinishedRunAndAnotherScenarioUnlessAllowed() throws {
        let baseline = try writeReport(setup: [100])
        let cases: [((inout RunReport) -> Void, String)] = [
            ({ $0.interrupted = true }, "NEW was interrupted before its planned end"),
            ({ $0.abortReason = "worker 1 died (signal 9) at 8.1 s" }, "NEW was aborted (worker 1 died (signal 9) at 8.1 s)"),
            ({ $0.invalidReason = "event-loop lag p99 80 ms in worker 0 exceeds 50 ms" }, "NEW is invalid: the harness saturated"),
            ({ $0.scenarioName = "other" }, "OLD ran scenario \"s\" and NEW ran \"other\"; compare runs of one scenario, or pass --allow-different"),
        ]
        for (change, says) in cases {
            let new = try writeReport(setup: [100], change)
            let captured = CapturedConsole()
            XCTAssertEqual(Rtcswarm.main(["report", "compare", baseline, new], console: captured.console), .couldNotRun, says)
            XCTAssertTrue(captured.error.hasPrefix("error: cannot compare \(baseline) with \(new): "), captured.error)
            XCTAssertTrue(captured.error.contains(says), captured.error)
            XCTAssertFalse(captured.out.contains("No regressions"), captured.out)
        }
        let interrupted = try writeReport(setup: [100]) { $0.interrupted = true }
        let reversed = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["report", "compare", interrupted, baseline], console: reversed.console), .couldNotRun)
        XCTAssertTrue(reversed.error.contains("OLD was interrupted"), reversed.error)
        let other = try writeReport(setup: [100]) { $0.scenarioName = "other" }
        let allowed = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["report", "compare", baseline, other, "--allow-different"], console: allowed.console), .success)
        XCTAssertTrue(allowed.out.contains("No regressions"), allowed.out)
    }

    func testMergeWritesAFolderWithEveryFile() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("merged-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let captured = CapturedConsole()
        let code = Rtcswarm.main(["report", "merge", try writeReport(setup: [1]), try writeReport(setup: [2]), "--out", out.path],
                                 console: captured.console)
        XCTAssertEqual(code, .success, captured.error)
        let merged = try ReportWriter.read(out.path)
        XCTAssertEqual(merged.cells[0].metrics.histograms[.setupMs]?.count, 2)
        for file in ReportWriter.files { XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path)) }
    }

    /// A folder that cannot be made, or a report that is not there, is one line naming the
    /// path and the reason, never a Foundation error dump.
    func testFileProblemsAreOneLineNamingThePath() throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("file-\(UUID().uuidString)")
        try Data("x".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let merge = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["report", "merge", try writeReport(setup: [1]), "--out", blocker.path + "/merged"], console: merge.console),
                       .couldNotRun)
        XCTAssertEqual(merge.errorLines.withLock { $0.count }, 1, merge.error)
        XCTAssertTrue(merge.error.hasPrefix("error: cannot write the report to \(blocker.path)/merged: "), merge.error)
        XCTAssertFalse(merge.error.contains("Domain="), merge.error)
        let compare = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["report", "compare", "/nonexistent-a", "/nonexistent-b"], console: compare.console), .couldNotRun)
        XCTAssertEqual(compare.error, "error: /nonexistent-a: no such file")
    }

    func testWrongActionOrMissingFileIsExplained() {
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["report", "compare", "only-one"], console: captured.console), .usage)
        XCTAssertTrue(captured.error.contains("use: report compare OLD NEW"), captured.error)
        let missing = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["report", "render", "/nonexistent"], console: missing.console), .couldNotRun)
        XCTAssertTrue(missing.error.hasPrefix("error: "), missing.error)
    }
}

final class RunCommandTests: XCTestCase {
    /// A threshold that cannot be met: exit code 4, and junit.xml names the case with the
    /// measured value; the last line is the report folder.
    func testAnUnmeetableThresholdExitsFourWithTheFailureInJUnit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        let file = folder.appendingPathComponent("s.json5")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
        { name: "t", duration_s: 2, target: { kind: "builtin-room" }, groups: [{ role: "member", count: 4 }],
          thresholds: ["join_ms.max < 0.001"] }
        """.utf8).write(to: file)
        let captured = CapturedConsole()
        let out = folder.appendingPathComponent("report")
        XCTAssertEqual(Rtcswarm.main(["run", file.path, "--workers", "1", "--out", out.path], console: captured.console), .thresholdFailed)
        XCTAssertEqual(captured.outLines.withLock { $0.last }, out.path)
        let junit = try String(contentsOf: out.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("<failure message=\"join_ms.max &lt; 0.001 failed: measured "), junit)
        XCTAssertTrue(captured.out.contains("**FAILED: 1 threshold(s)**"), captured.out)
    }

    /// `--out` on a nearly full disk: the summary table still reaches standard output and
    /// the error names report.json, which is absent rather than truncated.
    func testAFullOutDiskPrintsTheSummaryAndNamesWhatCouldNotBeWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        let file = folder.appendingPathComponent("s.json5")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
        { name: "full-disk", duration_s: 1, target: { kind: "builtin-room" }, groups: [{ role: "member", count: 2 }] }
        """.utf8).write(to: file)
        let disk = try TinyFileSystem(bytes: 4 * 1024)
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["run", file.path, "--workers", "1", "--out", disk.folder.path], console: captured.console),
                       .couldNotRun)
        XCTAssertTrue(captured.out.contains("# full-disk"), captured.out)
        XCTAssertTrue(captured.out.contains("| figure |"), captured.out)
        XCTAssertTrue(captured.error.contains("could not write report.json (write: No space left on device)"), captured.error)
        let json = disk.folder.appendingPathComponent("report.json").path
        XCTAssertFalse(FileManager.default.fileExists(atPath: json), "never a truncated report.json")
    }
}
