import Foundation
import Metrics
import Report
import Runtime
import Scenario
import XCTest

/// Pairs through the built-in room server with two data channels: a reliable ordered one
/// and an unordered one with `max_retransmits: 0`, messages echoed at 50 a second under
/// 5 % injected loss on what every peer receives.
final class DataChannelRunTests: XCTestCase {
    static let scenario = """
    { name: "dc-run", duration_s: 9, seed: 3, target: { kind: "builtin-room" },
      groups: [{ role: "pair", count: 3, arrival: { rate_per_s: 10 },
                 media: { video: { enabled: false }, audio: { bitrate_kbps: 6 } },
                 impairment: { receive: { loss_pct: 5 } },
                 data: { channels: [{ label: "reliable" }, { label: "lossy", ordered: false, max_retransmits: 0 }],
                         message: { size_bytes: 200, rate_per_s: 50, pattern: "echo" } } }],
      thresholds: ["dc_messages_received > 0", "dc_loss_pct.max < 0.001", "dc_latency_ms.p50 < 1000"],
      run: { workers: 1 } }
    """

    func testReliableCountsAreExactLossMatchesTheInjectedAndThresholdsJudgeTheFigures() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let runner = ScenarioRunner(loaded: try ScenarioLoader.load(text: Self.scenario), options: .init(folder: folder, version: "test", progress: { _ in }))
        let (report, _) = runner.run()
        let cell = try XCTUnwrap(report.cells.first)
        XCTAssertEqual(cell.peers.map(\.outcome), Array(repeating: .completed, count: 6), "\(cell.peers.map { $0.failureReason ?? "" })")
        let channels = cell.peers.flatMap { $0.dataChannels ?? [] }
        XCTAssertEqual(channels.count, 12)
        XCTAssertTrue(channels.allSatisfy { $0.openMs != nil && $0.streamId != nil }, "\(channels)")
        func total(_ label: String, echoed: Bool, _ count: KeyPath<DataChannelRecord, Int>) -> Int {
            channels.filter { $0.label == label && $0.echoed == echoed }.map { $0[keyPath: count] }.reduce(0, +)
        }
        // Reliable and ordered: every message arrives once, in order, and every echo returns.
        let sent = total("reliable", echoed: true, \.messagesSent)
        XCTAssertGreaterThan(sent, 3 * 200, "\(cell.peers.map { ($0.id, $0.dataChannels ?? []) })")
        XCTAssertEqual(total("reliable", echoed: false, \.messagesReceived), sent)
        XCTAssertEqual(total("reliable", echoed: false, \.messagesSent), sent)
        XCTAssertEqual(total("reliable", echoed: true, \.messagesReceived), sent)
        XCTAssertEqual(total("reliable", echoed: false, \.messagesLost) + total("reliable", echoed: true, \.messagesLost), 0)
        XCTAssertEqual(total("reliable", echoed: false, \.reordered), 0)
        // max_retransmits 0: the one-way loss is the injected 5 % within sample-size
        // tolerance (about 800 messages: 3.3 standard deviations is 2.5 points).
        let lost = total("lossy", echoed: false, \.messagesLost)
        let arrived = total("lossy", echoed: false, \.messagesReceived)
        let lossPct = Double(lost) * 100 / Double(lost + arrived)
        XCTAssertGreaterThan(lost + arrived, 600)
        XCTAssertEqual(lossPct, 5, accuracy: 2.5, "\(lost) of \(lost + arrived)")
        XCTAssertEqual(try XCTUnwrap(cell.metrics.value(at: MetricAddress(.dcLossPct, .mean))), 5, accuracy: 3)
        XCTAssertEqual(cell.metrics.histograms[.dcLossPct]?.count, 3)  // the lossy channel's three receivers
        // The figures: latency per message, open time per channel and side, the counts.
        let latency = try XCTUnwrap(cell.metrics.histograms[.dcLatencyMs])
        XCTAssertEqual(latency.count, total("reliable", echoed: false, \.messagesReceived) + arrived)
        XCTAssertGreaterThan(try XCTUnwrap(latency.percentile(50)), 0)
        XCTAssertLessThan(try XCTUnwrap(latency.percentile(50)), 1000)
        // The reliable channel's tail waits for retransmissions (SCTP's RTO is at least 1 s).
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(latency.percentile(99)), try XCTUnwrap(latency.percentile(50)))
        XCTAssertEqual(cell.metrics.histograms[.dcOpenMs]?.count, 12)
        XCTAssertEqual(cell.metrics.value(at: MetricAddress(.dcMessagesSent)), Double(channels.map(\.messagesSent).reduce(0, +)))
        XCTAssertEqual(cell.metrics.value(at: MetricAddress(.dcMessagesReceived)), Double(channels.map(\.messagesReceived).reduce(0, +)))
        XCTAssertNotNil(cell.metrics.histograms[.dcThroughputKbps]?.mean)
        // Thresholds on them: counted messages pass, any loss on the lossy channel fails,
        // and the failure is a JUnit test case.
        XCTAssertEqual(cell.thresholds.prefix(3).map(\.passed), [true, false, true], "\(cell.thresholds)")
        try ReportWriter.write(report, to: folder)
        let json = try String(contentsOf: folder.appendingPathComponent("report.json"), encoding: .utf8)
        XCTAssertTrue(json.contains("\"dc_latency_ms\"") && json.contains("\"dataChannels\""))
        let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("name=\"dc_loss_pct.max &lt; 0.001\">\n      <failure"), junit)
        // Every report format carries them.
        let summary = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
        XCTAssertTrue(summary.contains("dc_latency_ms.p95") && summary.contains("dc_loss_pct.mean"), summary)
        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<td>dc_open_ms.p95</td>"))
        let logged = try PeerLog.read(folder.appendingPathComponent("peers.ndjson"))
        XCTAssertEqual(logged.flatMap { $0.dataChannels ?? [] }.map(\.messagesReceived).reduce(0, +), channels.map(\.messagesReceived).reduce(0, +))
    }

    /// A call of data channels alone (no audio, no video; `PeerDataChannelTests` checks its
    /// offer of one section): every message echoes, nothing lost on a clean loopback.
    func testADataOnlyCallCarriesItsMessagesWithoutMedia() throws {
        let text = """
        { name: "dc-only", duration_s: 6, seed: 3, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 2, media: { video: { enabled: false }, audio: { enabled: false } },
                     data: { channels: [{ label: "only" }], message: { size_bytes: 64, rate_per_s: 20, pattern: "echo" } } }],
          run: { workers: 1 } }
        """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dc-only-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let runner = ScenarioRunner(loaded: try ScenarioLoader.load(text: text), options: .init(folder: folder, version: "test", progress: { _ in }))
        let (report, _) = runner.run()
        let cell = try XCTUnwrap(report.cells.first)
        XCTAssertEqual(cell.peers.map(\.outcome), Array(repeating: .completed, count: 4), "\(cell.peers.map { $0.failureReason ?? "" })")
        XCTAssertTrue(cell.peers.allSatisfy { $0.streams.isEmpty }, "no media stream in a data-only call")
        let channels = cell.peers.flatMap { $0.dataChannels ?? [] }
        XCTAssertEqual(channels.count, 4)
        let sent = channels.filter { $0.echoed }.map(\.messagesSent).reduce(0, +)
        // 20 a second from each of 2 callers for about 3 s (the sender stops 3 s before the end).
        XCTAssertGreaterThan(sent, 2 * 20 * 2)
        XCTAssertEqual(channels.filter { !$0.echoed }.map(\.messagesReceived).reduce(0, +), sent)
        XCTAssertEqual(channels.filter { $0.echoed }.map(\.messagesReceived).reduce(0, +), sent)
        XCTAssertEqual(channels.map(\.messagesLost).reduce(0, +), 0)
    }
}
