import Metrics
import Report
import XCTest

/// report.html draws the per-second loss, NACK and fps series where the samples have them.
final class TimeSeriesChartTests: XCTestCase {
    func testALossSpikeIsDrawnAtItsSecond() throws {
        let samples = (1...20).map { (second: Int) -> TimeSample in
            let spike = second == 10
            return TimeSample(tS: Double(second), connectingPeers: 0, connectedPeers: 10, failedPeers: 0, receiveKbps: 800, sendKbps: 0,
                              lagP99Ms: 1, lossPct: spike ? 5.0 : 0.0, nacksPerS: spike ? 40.0 : 0.0, fps: spike ? 18.0 : 30.0)
        }
        let html = HTMLReport.render(ReportFixtures.report(cells: [CellReport(label: "default", metrics: MetricSet(), timeSeries: samples)]))
        let chart = html.components(separatedBy: "First-pass loss per second")[1].components(separatedBy: "</svg>")[0]
        let points = chart.components(separatedBy: "points=\"")[1].components(separatedBy: "\"")[0].split(separator: " ")
        XCTAssertEqual(points.count, 20)
        // x from 0 to 20 s over 56...624 px, y from 0 to 5 % over 220...28 px: second 10 is the peak.
        XCTAssertEqual(points[9], "340,28")
        XCTAssertEqual(points[8], "311.6,220")
        XCTAssertTrue(html.contains("NACKs sent per second") && html.contains("Received fps per video stream"))
        let empty = HTMLReport.render(ReportFixtures.report(cells: [ReportFixtures.cell("default", setup: [10], loss: [0])]))
        XCTAssertFalse(empty.contains("First-pass loss per second"), "samples without receive totals draw no loss chart")
    }
}
