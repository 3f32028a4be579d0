import Foundation
import Metrics
@testable import Report
import WebRTCTestKit
import XCTest

final class ReportWritersTests: XCTestCase {
    func testJUnitHasOneCaseePerThresholdAndFailsWithTheMeasuredValue() {
        let report = ReportFixtures.report(cells: [ReportFixtures.cell("default", setup: [100, 200, 300], loss: [0.5], thresholds: [
            ThresholdOutcome(expr: "setup_ms.p95 < 250", passed: false, measured: 300),
            ThresholdOutcome(expr: "loss_pct.max < 1", passed: true, measured: 0.5),
        ])])
        let xml = JUnitReport.render(report)
        XCTAssertTrue(xml.contains("<testsuites name=\"demo &lt;&amp;&gt;\" tests=\"4\" failures=\"1\">"), xml)
        XCTAssertTrue(xml.contains("<testcase classname=\"thresholds\" name=\"setup_ms.p95 &lt; 250\">"), xml)
        XCTAssertTrue(xml.contains("<failure message=\"setup_ms.p95 &lt; 250 failed: measured 300\">"), xml)
        XCTAssertTrue(xml.contains("<testcase classname=\"thresholds\" name=\"loss_pct.max &lt; 1\"/>"), xml)
        XCTAssertTrue(xml.contains("<testcase classname=\"run\" name=\"harness not saturated\"/>"), xml)
    }

    func testJUnitMarksInterruptedAndSaturatedRunsAsFailures() {
        let report = ReportFixtures.report(cells: [ReportFixtures.cell("default", setup: [1], loss: [])], interrupted: true,
                                           invalid: "lag p99 80 ms")
        let xml = JUnitReport.render(report)
        XCTAssertTrue(xml.contains("failures=\"2\""), xml)
        XCTAssertTrue(xml.contains("interrupted before the planned end"), xml)
        XCTAssertTrue(xml.contains("invalid: harness saturated: lag p99 80 ms"), xml)
        XCTAssertFalse(report.passed)
    }

    func testSummaryShowsMatrixCellsSideBySideAndOnlyMeasuredFigures() {
        let report = ReportFixtures.report(cells: [
            ReportFixtures.cell("vp8", setup: [100, 200], loss: [1, 3]),
            ReportFixtures.cell("h264", setup: [150], loss: [2]),
        ])
        let summary = MarkdownSummary.render(report)
        XCTAssertTrue(summary.contains("| figure | vp8 | h264 |"), summary)
        XCTAssertTrue(summary.contains("| `video.loss_pct.mean` | 2 | 2 |"), summary)
        XCTAssertTrue(summary.contains("| `video.loss_pct.max` | 3 | 2 |"), summary)
        XCTAssertFalse(summary.contains("jitter_ms"), "nothing measured jitter, so no row for it")
        XCTAssertTrue(summary.contains("**PASSED**"), summary)
        XCTAssertTrue(summary.contains("- p1 (player) in ice at 12.4 s: ICE consent lost at 12.4 s"), summary)
    }

    func testTheTargetsVersionHeadsSummaryAndHTML() {
        var report = ReportFixtures.report(cells: [ReportFixtures.cell("default", setup: [1], loss: [])])
        XCTAssertFalse(MarkdownSummary.render(report).contains("target"))
        report.targetVersion = "Janus <1.1.2>"
        XCTAssertTrue(MarkdownSummary.render(report).contains(", target Janus <1.1.2>\n"), MarkdownSummary.render(report))
        XCTAssertTrue(HTMLReport.render(report).contains(", target Janus &lt;1.1.2&gt;</p>"))
        report.iceProfile = "rfc8445"
        XCTAssertTrue(MarkdownSummary.render(report).contains(", target Janus <1.1.2>, ICE profile rfc8445\n"), MarkdownSummary.render(report))
    }

    func testHTMLIsSelfContainedAndDrawsTheCharts() {
        let report = ReportFixtures.report(cells: [ReportFixtures.cell("default", setup: Array(stride(from: 10.0, through: 500, by: 10)), loss: [0, 1, 2])])
        let html = HTMLReport.render(report)
        XCTAssertEqual(html.components(separatedBy: "<script").count, 2, "one small script, the peer table's sorting")
        XCTAssertFalse(html.contains("http://") && !html.contains("xmlns=\"http://www.w3.org/2000/svg\""))
        XCTAssertTrue(html.contains("<h1>demo &lt;&amp;&gt;</h1>"))
        let svgCount = html.components(separatedBy: "<svg ").count - 1
        XCTAssertEqual(svgCount, 7, "setup phases, setup CDF, loss CDF, peers, bitrate, worker lag, resolutions: the charts with data")
        // The setup CDF has one point per 2 percent: 51 points.
        let setupChart = html.components(separatedBy: "Setup time (CDF)")[1].components(separatedBy: "</svg>")[0]
        let points = setupChart.components(separatedBy: "points=\"")[1].components(separatedBy: "\"")[0]
        XCTAssertEqual(points.split(separator: " ").count, 51)
        XCTAssertFalse(html.contains("Jitter per stream"), "a chart without data is left out")
        XCTAssertTrue(html.contains("ICE consent lost at 12.4 s"))
    }

    func testFilesRoundTripAndOtherSchemaVersionsAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = ReportFixtures.report(cells: [ReportFixtures.cell("default", setup: [120, 130], loss: [0.25])])
        try ReportWriter.write(report, to: folder)
        for file in ReportWriter.files {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), file)
        }
        let read = try ReportWriter.read(folder.path)
        XCTAssertEqual(read, report)
        XCTAssertEqual(read.cells[0].metrics.value(at: MetricAddress(.setupMs, .max)) ?? 0, 130, accuracy: 0.1)

        var json = try String(contentsOf: folder.appendingPathComponent("report.json"), encoding: .utf8)
        json = json.replacingOccurrences(of: "\"schemaVersion\" : \(RunReport.currentSchemaVersion)", with: "\"schemaVersion\" : 99")
        try Data(json.utf8).write(to: folder.appendingPathComponent("report.json"))
        XCTAssertThrowsError(try ReportWriter.read(folder.path)) { error in
            XCTAssertTrue("\(error)".contains("has schema version 99; this rtcswarm reads version \(RunReport.currentSchemaVersion)"), "\(error)")
        }
    }

    /// A full `--out` disk: every report file is either whole or absent (never a truncated
    /// report.json), the error names exactly the absent ones, and no temporary file is left.
    func testAFullDiskLeavesEachFileWholeOrAbsentAndNamesTheMissingOnes() throws {
        let disk = try TinyFileSystem(bytes: 8 * 1024)
        let report = ReportFixtures.report(cells: [ReportFixtures.cell("default", setup: Array(stride(from: 1.0, to: 400, by: 1)),
                                                                       loss: [0.25])])
        XCTAssertGreaterThan(try ReportWriter.encode(report).count, 8 * 1024, "report.json must not fit")
        XCTAssertThrowsError(try ReportWriter.write(report, to: disk.folder)) { error in
            guard let failure = error as? ReportWriteFailure else { return XCTFail("\(error)") }
            let present = ReportWriter.files.filter { FileManager.default.fileExists(atPath: disk.folder.appendingPathComponent($0).path) }
            XCTAssertEqual(Set(failure.files.map(\.name)), Set(ReportWriter.files).subtracting(present))
            XCTAssertTrue(failure.files.map(\.name).contains("report.json"))
            XCTAssertTrue(failure.files.allSatisfy { $0.reason.contains("No space left on device") }, failure.description)
            XCTAssertFalse(present.isEmpty, "the small files still fit and are written")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: disk.folder.appendingPathComponent("report.json").path))
        let expected = ["junit.xml": JUnitReport.render(report), "summary.md": MarkdownSummary.render(report),
                        "report.html": HTMLReport.render(report)]
        for (name, text) in expected where FileManager.default.fileExists(atPath: disk.folder.appendingPathComponent(name).path) {
            XCTAssertEqual(try String(contentsOf: disk.folder.appendingPathComponent(name), encoding: .utf8), text, "\(name) is whole")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.folder.path).filter { $0.hasSuffix(".partial") }, [])
    }

    /// A missing or malformed report.json is one line naming the file and what is wrong,
    /// not an NSCocoaErrorDomain or DecodingError dump.
    func testAnUnreadableReportIsOneLineNamingTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("badreport-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertThrowsError(try ReportWriter.read(folder.path)) { error in
            XCTAssertEqual("\(error)", "\(folder.path)/report.json: no such file")
        }
        try Data(#"{"schemaVersion": 2, "scenarioName": "x"}"#.utf8).write(to: folder.appendingPathComponent("report.json"))
        XCTAssertThrowsError(try ReportWriter.read(folder.path)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(folder.path)/report.json: missing key \""), "\(error)")
        }
        try Data("not json".utf8).write(to: folder.appendingPathComponent("report.json"))
        XCTAssertThrowsError(try ReportWriter.read(folder.path)) { error in
            XCTAssertEqual("\(error)", "\(folder.path)/report.json: not valid JSON")
        }
    }

    func testPeerLogAppendsOneLinePerPeerAndReadsBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("peerlog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let peers = ReportFixtures.cell("x", setup: [1], loss: []).peers
        let log = try PeerLog(folder: folder)
        for peer in peers { try log.append(peer) }
        XCTAssertEqual(log.written, 2)
        let text = try String(contentsOf: folder.appendingPathComponent("peers.ndjson"), encoding: .utf8)
        XCTAssertEqual(text.split(separator: "\n").count, 2)
        XCTAssertEqual(try PeerLog.read(folder.appendingPathComponent("peers.ndjson")), peers)
    }
}

final class SVGChartTests: XCTestCase {
    func testAxesEndOnRoundNumbers() {
        XCTAssertEqual(SVGChart.niceRange([0, 1000]), 0...1000)
        XCTAssertEqual(SVGChart.niceRange([3, 870]), 0...1000)
        XCTAssertEqual(SVGChart.niceRange([0.03, 0.21]), 0...0.25)
        XCTAssertEqual(SVGChart.niceRange([-2, 3]), -2...3)
        XCTAssertEqual(SVGChart.niceRange([]), 0...1)
        XCTAssertEqual(SVGChart.niceRange([0, 0]), 0...1)
    }
}
