import Foundation
import Metrics
import Report
import Runtime
import Scenario
import XCTest

final class RoomMessageRunTests: XCTestCase {
    /// Three members of one room, arriving 1.25 s apart and staying 2.6 s each, so each
    /// sends two messages (1 s and 2 s after joining) and leaves before the run ends:
    ///   a in the room 0 - 2.6 s, sends at 1.0 and 2.0
    ///   b in the room 1.25 - 3.85 s, sends at 2.25 and 3.25
    ///   c in the room 2.5 - 5.1 s, sends at 3.5 and 4.5
    /// a gets b's 2.25; b gets a's 2.0 and c's 3.5; c gets b's 3.25; c's 4.5 reaches no one.
    /// 6 sent, 4 relayed, 4 received, none lost: the messages sent while a member was away
    /// are not counted lost against it.
    func testMembersLeavingEarlyGetExactlyTheMessagesSentWhileTheyWereIn() throws {
        let text = """
        { name: "room-messages", duration_s: 5.5, target: { kind: "builtin-room", room: { capacity: 3 } },
          groups: [{ role: "member", count: 3, duration_s: 2.6, arrival: { rate_per_s: 0.8 } }],
          thresholds: ["failed_peers == 0", "messages_lost == 0"] }
        """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rooms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let runner = ScenarioRunner(loaded: try ScenarioLoader.load(text: text), options: .init(folder: folder, version: "test", progress: { _ in }))
        let (report, outcome) = runner.run()
        XCTAssertEqual(outcome, .passed, "\(report.cells.first?.thresholds ?? [])")
        let cell = try XCTUnwrap(report.cells.first)
        let byStart = cell.peers.sorted { $0.startedAtMs < $1.startedAtMs }
        XCTAssertEqual(byStart.map { $0.messages?.sent }, [2, 2, 2])
        XCTAssertEqual(byStart.map { $0.messages?.received }, [1, 2, 1])
        XCTAssertEqual(cell.rooms, [RoomMessageSummary(room: "room-0-0", members: 3, sent: 6, relayed: 4, received: 4)])
        let counts = [MetricName.messagesSent, .messagesRelayed, .messagesReceived, .messagesLost, .messagesDuplicated]
            .map { cell.metrics.value(at: MetricAddress($0)) }
        XCTAssertEqual(counts, [6, 4, 4, 0, 0])
        // The same counts in peers.ndjson, written as each member left.
        let logged = try PeerLog.read(folder.appendingPathComponent("peers.ndjson"))
        XCTAssertEqual(logged.compactMap(\.messages?.received).reduce(0, +), 4)
        // The per-second relay series counts the same four messages (all relayed by 3.5 s,
        // before the last tick), each second's median within the run's relay times.
        XCTAssertEqual(cell.timeSeries.compactMap(\.relayMessages).reduce(0, +), 4)
        let relayed = try XCTUnwrap(cell.metrics.histograms[.relayMs])
        for sample in cell.timeSeries {
            guard let p50 = sample.relayP50Ms, let p95 = sample.relayP95Ms else { continue }
            XCTAssertTrue(p50 <= p95 && p95 <= (relayed.max ?? 0) * 1.001, "at \(sample.tS) s: \(p50) \(p95)")
        }
        let summary = MarkdownSummary.render(report)
        XCTAssertTrue(summary.contains("| total | 3 | 6 | 4 | 4 | 0 | 0 |"), summary)
    }
}
