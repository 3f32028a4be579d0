import Foundation
import Metrics
import Report
import WebRTCTestKit
import XCTest

/// report.html renders in a real browser and its charts are drawn (issue 6).
final class ReportRenderingTests: XCTestCase {
    func testReportRendersInHeadlessChromiumWithItsChartsDrawn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var metrics = MetricSet()
        for value in stride(from: 5.0, through: 400, by: 5) { metrics.record(value, in: .setupMs) }
        for value in stride(from: 0.1, through: 3, by: 0.1) { metrics.record(value, in: .relayMs) }
        // Every per-second chart with data: peers (connected, failed), bitrate (sent,
        // received), loss, NACKs, fps, freezes, jitter, room message relay time, worker lag and CPU.
        let samples = (0..<20).map { second in
            var sample = TimeSample(tS: Double(second), connectingPeers: 0, connectedPeers: min(second, 10) * 50, failedPeers: second / 4,
                                    receiveKbps: Double(min(second, 10)) * 400, sendKbps: Double(min(second, 10)) * 380,
                                    lagP99Ms: 0.2 + Double(second % 5), lossPct: second == 12 ? 5 : 0.1, nacksPerS: second == 12 ? 40 : 1,
                                    fps: 29 + Double(second % 2))
            sample.cpuPct = 20 + Double(second)
            sample.freezes = second == 12 ? 4 : 0
            (sample.videoJitterP50Ms, sample.videoJitterP95Ms) = (1 + Double(second % 3) / 10, second == 12 ? 9 : 2.5)
            (sample.audioJitterP50Ms, sample.audioJitterP95Ms) = (0.8, 1.6)
            sample.relays(Histogram((0..<50).map { Double($0 % 10) / 4 + Double(second % 3) }))
            return sample
        }
        // Peers with phases: the phase table, the stacked median/tail chart and the peer table.
        let peers = (0..<40).map { index -> PeerRecord in
            let phases = ["signaling_ms": 20, "ice_ms": index >= 38 ? 300 : 30, "dtls_ms": 40, "setup_ms": index >= 38 ? 370 : 100.0]
            for (phase, value) in phases { metrics.record(value, in: MetricName(rawValue: phase)!) }
            return PeerRecord(id: "p\(index)", group: 0, role: "player", startedAtMs: 0, endedAtMs: 20_000, phases: phases, outcome: .completed)
        }
        let report = RunReport(rtcswarmVersion: "test", scenarioName: "render check", resolvedScenario: "{}", seed: 1,
                               startedAt: "2026-11-29T00:00:00Z", durationS: 20,
                               cells: [CellReport(label: "default", metrics: metrics, timeSeries: samples, peers: peers)], workers: [])
        try ReportWriter.write(report, to: folder)
        // The plain page with no charts: what a broken report would look like.
        var empty = report
        empty.cells = []
        try Data(HTMLReport.render(empty).utf8).write(to: folder.appendingPathComponent("empty.html"))

        let shot = folder.appendingPathComponent("report.png")
        let blank = folder.appendingPathComponent("empty.png")
        let output = try HeadlessChromium.screenshot(of: folder.appendingPathComponent("report.html"), to: shot, height: 4000)
        try HeadlessChromium.screenshot(of: folder.appendingPathComponent("empty.html"), to: blank, height: 4000)
        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        for title in ["Peers connected and failed", "Bitrate sent and received", "First-pass loss per second", "NACKs sent per second",
                      "Received fps per video stream", "Video freezes per second", "Jitter of the streams being received",
                      "Room message relay time per second", "Worker event-loop lag p99", "Busiest worker&apos;s CPU"] {
            XCTAssertTrue(html.contains(">\(title)</text>"), "chart \(title) is drawn")
        }
        XCTAssertFalse(output.contains("Uncaught"), "no script errors: \(output)")

        // Pixels in the first series colour (#1f77b4) are lines and bars of the charts.
        let drawn = try chartPixels(shot)
        let none = try chartPixels(blank)
        XCTAssertEqual(none, 0, "a report without figures draws nothing in the chart colour")
        // Ten lines (setup CDF, relay CDF, connected, sent, loss, NACKs, fps, relay p50, lag, CPU) of
        // 300+ px at 2 px width, or more.
        XCTAssertGreaterThan(drawn, 6_000, "the chart lines were drawn")
        // The second series colour (#d62728): the failed peers, the received bitrate, relay p95.
        XCTAssertGreaterThan(try chartPixels(shot, "214", "39", "40"), 1_200, "the second line of the two-line charts was drawn")
    }

    /// The peer table's script sorts by the clicked column, numbers by value, both ways.
    func testThePeerTableSortsByAClickedColumnInChromium() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sort-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let peers = [1_000.0, 90, 200].map { setup in
            PeerRecord(id: "peer-\(Int(setup))", group: 0, role: "player", startedAtMs: 0, endedAtMs: 5_000, phases: ["setup_ms": setup], outcome: .completed)
        }
        let report = RunReport(rtcswarmVersion: "test", scenarioName: "sort check", resolvedScenario: "{}", seed: 1,
                               startedAt: "2026-11-29T00:00:00Z", durationS: 5,
                               cells: [CellReport(label: "default", metrics: MetricSet(), peers: peers)], workers: [])
        let html = HTMLReport.render(report)
        func order(afterClicking clicks: [String]) throws -> [String] {
            let click = clicks.map { "Array.from(document.querySelectorAll('table.sortable th')).find(function (th) { return th.textContent === '\($0)'; }).click();" }
            let page = folder.appendingPathComponent("clicked-\(clicks.count)-\(clicks.first ?? "").html")
            try Data(html.replacingOccurrences(of: "</body>", with: "<script>\(click.joined())</script></body>").utf8).write(to: page)
            let dom = try HeadlessChromium.dumpDOM(of: page)
            let body = try XCTUnwrap(dom.components(separatedBy: "<tbody>").dropFirst().first?.components(separatedBy: "</tbody>").first, dom)
            return body.components(separatedBy: "<tr").dropFirst().map { $0.components(separatedBy: "text-align:left\">")[1].components(separatedBy: "<")[0] }
        }
        XCTAssertEqual(try order(afterClicking: []), ["peer-1000", "peer-200", "peer-90"], "rank order: slowest setup first")
        XCTAssertEqual(try order(afterClicking: ["setup ms", "setup ms"]), ["peer-90", "peer-200", "peer-1000"], "ascending by value, not by text")
        XCTAssertEqual(try order(afterClicking: ["peer"]), ["peer-90", "peer-200", "peer-1000"], "text descending")
    }

    /// A click on a peer's row opens that peer's own chart, second by second; without
    /// scripts every chart is there, closed; a peer without media has none.
    func testClickingAPeersRowOpensItsOwnChartInChromium() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("series-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var peers = [1_000.0, 200, 90].map { setup in
            PeerRecord(id: "peer-\(Int(setup))", group: 0, role: "player", startedAtMs: 0, endedAtMs: 5_000, phases: ["setup_ms": setup], outcome: .completed)
        }
        for index in 0..<2 {
            peers[index].series = (1...5).map { PeerSecond(tS: Double($0), lossPct: $0 == 3 ? 8 : 0, fps: 30, freezes: $0 == 3 ? 1 : 0, videoJitterMs: 2) }
        }
        let report = RunReport(rtcswarmVersion: "test", scenarioName: "series check", resolvedScenario: "{}", seed: 1,
                               startedAt: "2026-11-29T00:00:00Z", durationS: 5,
                               cells: [CellReport(label: "default", metrics: MetricSet(), peers: peers)], workers: [])
        let html = HTMLReport.render(report)
        XCTAssertEqual(html.components(separatedBy: "<details id=\"peer-series-").count - 1, 2, "a chart for each peer with a series")
        XCTAssertTrue(html.contains(">Peer peer-200, second by second</text>"))
        XCTAssertFalse(html.contains("<details open"), "closed without scripts")
        let page = folder.appendingPathComponent("clicked.html")
        let click = "document.querySelectorAll('table.peers tr[data-peer]')[1].click();"
        try Data(html.replacingOccurrences(of: "</body>", with: "<script>\(click)</script></body>").utf8).write(to: page)
        let dom = try HeadlessChromium.dumpDOM(of: page)
        XCTAssertTrue(dom.contains("<details id=\"peer-series-2\" open=\"\">"), "the clicked row's chart is open")
        XCTAssertFalse(dom.contains("<details id=\"peer-series-1\" open"), "the others stay closed")
    }

    private func chartPixels(_ png: URL, _ red: String = "31", _ green: String = "119", _ blue: String = "180") throws -> Int {
        let python = try PythonPeers.python()
        let result = try ExternalTool.run(python, [PythonPeers.script("png_colors.py"), png.path, red, green, blue])
        XCTAssertEqual(result.status, 0, result.output)
        return Int(result.output.split(separator: " ").first ?? "") ?? -1
    }
}
