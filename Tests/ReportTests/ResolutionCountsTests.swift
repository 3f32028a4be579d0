import Metrics
import Report
import XCTest

/// Frames whose size was never read are a row of their own, so frames by resolution adds
/// up to the frames received (issue 17: 34,780 received, 34,498 by resolution).
final class ResolutionCountsTests: XCTestCase {
    static func cell() -> CellReport {
        var metrics = MetricSet()
        metrics.record(100, in: .resolutionSurvival)  // over the sized frames only
        metrics.increment(.framesUnknownSize, by: 282)
        let streams = [StreamRecord(kind: "video", codec: "VP8", packetsReceived: 9, packetsExpected: 9, lossPct: 0, residualLossPct: 0,
                                    burstMax: 0, jitterMs: 1, framesReceived: 20_000, resolutions: ["1280x720": 19_800]),
                       StreamRecord(kind: "video", codec: "VP8", packetsReceived: 9, packetsExpected: 9, lossPct: 0, residualLossPct: 0,
                                    burstMax: 0, jitterMs: 1, framesReceived: 14_780, resolutions: ["1280x720": 14_698]),
                       StreamRecord(kind: "audio", codec: "opus", packetsReceived: 9, packetsExpected: 9, lossPct: 0, residualLossPct: 0,
                                    burstMax: 0, jitterMs: 1)]
        return CellReport(label: "default", metrics: metrics, peers: [
            PeerRecord(id: "p0", group: 0, role: "player", startedAtMs: 0, endedAtMs: 1, outcome: .completed, streams: streams),
        ])
    }

    func testUnknownFramesAreARowAndTheRowsAddUpToTheFramesReceived() {
        XCTAssertEqual(Self.cell().peers[0].streams.map(\.framesOfUnknownSize), [200, 82, 0])
        let summary = MarkdownSummary.render(ReportFixtures.report(cells: [Self.cell()]))
        XCTAssertTrue(summary.contains("| 1280x720 | 34498 |\n| unknown | 282 |\n| total (frames received) | 34780 |"), summary)
        XCTAssertTrue(summary.contains("| `resolution_survival.min` | 100 |"), summary)
        XCTAssertTrue(summary.contains("| `frames_unknown_size` | 282 |"), summary)
        let html = HTMLReport.render(ReportFixtures.report(cells: [Self.cell()]))
        let chart = html.components(separatedBy: "Video frames received by resolution (34780 in all)")[1].components(separatedBy: "</svg>")[0]
        XCTAssertTrue(chart.contains(">unknown</text>") && chart.contains(">282</text>"), chart)
    }

    func testAThresholdCanRequireEveryFrameSized() throws {
        let threshold = try Threshold(parsing: "frames_unknown_size == 0")
        let result = threshold.evaluate(Self.cell().metrics)
        XCTAssertFalse(result.passed)
        XCTAssertEqual(result.measured, 282)
    }
}
