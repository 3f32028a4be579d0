import Report
import XCTest

/// The native-vs-browser table from records with known figures.
final class CalibrationRowTests: XCTestCase {
    private func native(_ index: Int, ice: Double, jitter: Double, height: Int) -> PeerRecord {
        PeerRecord(id: "g1-\(index)", group: 1, role: "player", startedAtMs: 0, endedAtMs: 8_000,
                   phases: ["ice_ms": ice, "setup_ms": ice + 5], outcome: .completed,
                   streams: [StreamRecord(kind: "video", codec: "H264", packetsReceived: 980, packetsExpected: 1000, lossPct: 2,
                                          residualLossPct: 0, burstMax: 1, jitterMs: jitter, framesReceived: 240,
                                          resolutions: ["640x\(height)": 230, "320x180": 10])])
    }

    private func chromium(_ index: Int, ice: Double, jitter: Double, lost: Int) -> PeerRecord {
        var stats = BrowserStats(userAgent: "HeadlessChrome/156",
                                 streams: [.init(direction: "inbound", kind: "video", codec: "video/H264", packets: 1000 - lost, packetsLost: lost,
                                                 frames: 236, frameWidth: 640, frameHeight: 360, nackCount: lost, jitterMs: jitter)])
        stats.iceMs = ice
        var record = PeerRecord(id: "g2-\(index)", group: 2, role: "player", startedAtMs: 0, endedAtMs: 8_000,
                                phases: ["ice_ms": ice, "setup_ms": ice + 9], outcome: .completed, browser: stats)
        record.client = "chromium"
        return record
    }

    func testEachFigureIsTheMedianOfEachSideAndTheirDifference() throws {
        let records = [native(0, ice: 1, jitter: 2, height: 360), native(1, ice: 3, jitter: 4, height: 360), native(2, ice: 2, jitter: 9, height: 360),
                       chromium(0, ice: 4, jitter: 1, lost: 10), chromium(1, ice: 6, jitter: 3, lost: 30)]
        let rows = CalibrationRow.rows(records)
        func row(_ figure: String) throws -> CalibrationRow { try XCTUnwrap(rows.first { $0.figure == figure }, figure) }
        XCTAssertEqual(try row("ice_ms").native, 2, "the middle of 1, 2, 3")
        XCTAssertEqual(try row("ice_ms").browser, 5, "the mean of the two middle values of 4, 6")
        XCTAssertEqual(try row("ice_ms").difference, 3)
        XCTAssertEqual(try row("setup_ms").difference, 7)
        XCTAssertEqual(try row("video.jitter_ms").native, 4)
        XCTAssertEqual(try row("video.jitter_ms").browser, 2)
        XCTAssertEqual(try row("video.loss_pct").browser, 2, "1 % and 3 % of the packets expected")
        XCTAssertEqual(try row("video.frame_height").native, 360, "the size most frames had")
        XCTAssertEqual(try row("video.frames_received").difference, -4)
        XCTAssertEqual([try row("ice_ms").nativePeers, try row("ice_ms").browserPeers], [3, 2])
        XCTAssertNil(try row("audio.jitter_ms").native, "no audio on either side")
        XCTAssertEqual(Set(rows.map(\.role)), ["player"])
    }

    func testNoChromiumPeerNoRows() {
        XCTAssertEqual(CalibrationRow.rows([native(0, ice: 1, jitter: 2, height: 360)]), [])
    }

    func testTheSummaryShowsTheTable() {
        var cell = ReportFixtures.cell("default", setup: [10], loss: [0])
        cell.calibration = CalibrationRow.rows([native(0, ice: 2, jitter: 2, height: 360), chromium(0, ice: 3, jitter: 1, lost: 0)])
        let summary = MarkdownSummary.render(ReportFixtures.report(cells: [cell]))
        XCTAssertTrue(summary.contains("| player | ice_ms | 2 (1) | 3 (1) | 1 (50 %) |"), summary)
        XCTAssertTrue(HTMLReport.render(ReportFixtures.report(cells: [cell])).contains("<h2>Native vs browser</h2>"))
    }
}
