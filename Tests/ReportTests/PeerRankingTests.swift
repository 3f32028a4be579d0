import Metrics
import Report
import XCTest

/// The peer table: ranked by the stated rule (failed, frame loss, freeze time, setup),
/// every peer or the worst 200, sortable by script and readable without it.
final class PeerRankingTests: XCTestCase {
    private func peer(_ id: String, failed: Bool = false, frameLoss: Double = 0, freezeMs: Double = 0, setup: Double? = 100) -> PeerRecord {
        let video = StreamRecord(kind: "video", codec: "VP8", packetsReceived: 100, packetsExpected: 100, lossPct: 0, residualLossPct: 0,
                                 burstMax: 0, jitterMs: 1, framesReceived: 300, frameLossPct: frameLoss, fps: 30, freezeMs: freezeMs,
                                 resolutions: ["640x360": 290])
        return PeerRecord(id: id, group: 0, role: "player", startedAtMs: 0, endedAtMs: 1_000, phases: setup.map { ["setup_ms": $0] } ?? [:],
                          outcome: failed ? .failed : .completed, failedPhase: failed ? "ice" : nil,
                          failureReason: failed ? "no | answer" : nil, streams: failed ? [] : [video])
    }

    private func report(_ peers: [PeerRecord]) -> RunReport {
        ReportFixtures.report(cells: [CellReport(label: "default", metrics: MetricSet(), peers: peers)])
    }

    func testTheRuleOrdersFailedThenFrameLossThenFreezeThenSetup() {
        let peers = [peer("slow", setup: 900), peer("frozen", freezeMs: 400), peer("fine"), peer("lossy", frameLoss: 3),
                     peer("dead", failed: true, setup: nil), peer("lossier", frameLoss: 7), peer("frozen-more", freezeMs: 900),
                     peer("a-fine")]
        let summary = MarkdownSummary.render(report(peers))
        XCTAssertTrue(summary.contains("Worst peers, ranked: failed first, then by frame loss %"), summary)
        let order = summary.components(separatedBy: "Worst peers")[1].split(separator: "\n").filter { $0.hasPrefix("| ") && $0.dropFirst(2).first?.isNumber == true }
            .map { $0.split(separator: "|")[1].trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(order, ["dead", "lossier", "lossy", "frozen-more", "frozen", "slow", "a-fine", "fine"])
        XCTAssertTrue(summary.contains("| 1 | dead | failed | - | - | - | no \\| answer |"), summary)
        XCTAssertTrue(summary.contains("| 2 | lossier | completed | 7 | 0 | 100 |  |"), summary)

        let html = HTMLReport.render(report(peers))
        XCTAssertTrue(html.contains("All 8 peers, ranked: failed first"), "the rule is stated")
        let table = html.components(separatedBy: "<table class=\"sortable peers\">")[1].components(separatedBy: "</table>")[0]
        let ids = table.components(separatedBy: "<tr").dropFirst(2).map { $0.components(separatedBy: "text-align:left\">")[1].components(separatedBy: "<")[0] }
        XCTAssertEqual(ids, ["dead", "lossier", "lossy", "frozen-more", "frozen", "slow", "a-fine", "fine"], "rank order without any script")
        XCTAssertTrue(table.contains("<td data-v=\"7.0\">7</td>"), "numbers sort by their value")
        XCTAssertTrue(table.contains("640x360 290, unknown 10"), "sizes with the unknown frames")
        XCTAssertTrue(html.contains("<script>") && html.contains("table.sortable th"), "the sorting script")
    }

    func testABigRunListsTheWorst200() {
        let peers = (0..<450).map { peer("p\($0)", frameLoss: Double($0 % 50)) }
        let html = HTMLReport.render(report(peers))
        XCTAssertTrue(html.contains("The worst 200 of 450 peers"))
        let table = html.components(separatedBy: "<table class=\"sortable peers\">")[1].components(separatedBy: "</table>")[0]
        XCTAssertEqual(table.components(separatedBy: "<tr").count - 2, 200)
        // 9 peers each have 49, 48, ..., so the 200th has 27 % frame loss (22 values x 9 = 198, then two of 27).
        let last = table.components(separatedBy: "<tr").last ?? ""
        XCTAssertTrue(last.contains("<td data-v=\"27.0\">27</td>"), last)
    }
}

/// report.html's data channel table: one row per channel and side of the ranked peers,
/// with the record's own counts; none without channels.
final class DataChannelTableTests: XCTestCase {
    func testEachChannelOfEachSideIsARowWithItsCounts() {
        func channel(_ label: String, sent: Int, received: Int, lost: Int, echoed: Bool, openMs: Double?) -> DataChannelRecord {
            DataChannelRecord(label: label, streamId: openMs == nil ? nil : 1, ordered: !echoed, reliable: echoed, openMs: openMs,
                              messagesSent: sent, messagesReceived: received, messagesLost: lost, reordered: 0, unreadable: 0,
                              echoed: echoed, latencyMeanMs: 2.5, latencyMaxMs: 9, throughputKbps: 16, inFigures: true)
        }
        var caller = PeerRecord(id: "g0-0-caller", group: 0, role: "pair", startedAtMs: 0, endedAtMs: 1_000, outcome: .completed)
        caller.dataChannels = [channel("chat", sent: 120, received: 118, lost: 2, echoed: true, openMs: 3.25)]
        var callee = PeerRecord(id: "g0-0-callee", group: 0, role: "pair", startedAtMs: 0, endedAtMs: 1_000, outcome: .completed)
        callee.dataChannels = [channel("chat", sent: 119, received: 119, lost: 0, echoed: false, openMs: 3),
                               channel("never", sent: 0, received: 0, lost: 0, echoed: false, openMs: nil)]
        let html = HTMLReport.render(ReportFixtures.report(cells: [CellReport(label: "default", metrics: MetricSet(), peers: [caller, callee])]))
        let table = html.components(separatedBy: "<h2>Data channels</h2>")[1].components(separatedBy: "</table>")[0]
        let rows = table.components(separatedBy: "<tr").dropFirst(2)
        XCTAssertEqual(rows.count, 3, table)
        let callerRow = rows.first { $0.contains("g0-0-caller") } ?? ""
        for cell in ["<td style=\"text-align:left\">chat</td>", "<td data-v=\"120.0\">120</td>", "<td data-v=\"118.0\">118</td>",
                     "<td data-v=\"2.0\">2</td>", "<td data-v=\"3.25\">3.25</td>", "its echo"] {
            XCTAssertTrue(callerRow.contains(cell), "\(cell) in \(callerRow)")
        }
        XCTAssertTrue(rows.contains { $0.hasPrefix(" class=\"fail\"") && $0.contains("never") }, "a channel that never opened is marked")
        XCTAssertFalse(HTMLReport.render(ReportFixtures.report(cells: [CellReport(label: "default", metrics: MetricSet(), peers: [])]))
            .contains("<h2>Data channels</h2>"))
    }
}
