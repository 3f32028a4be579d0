import Metrics
import Report
import XCTest

final class RoomMessageCountsTests: XCTestCase {
    /// Sender a's numbers 1...10 with 4 and 7 lost and 5 twice; sender b's 3...6 (it joined
    /// before this member) with none lost: 2 lost, 1 duplicated, 13 received.
    func testLostAndDuplicatedComeFromEachSendersSequenceNumbers() {
        var tally = RoomMessageTally()
        for number in [1, 2, 3, 5, 5, 6, 8, 9, 10] { tally.receive(from: "a", sequence: number) }
        for number in [3, 4, 5, 6] { tally.receive(from: "b", sequence: number) }
        let counts = tally.counts(room: "room-0-0", sent: 7)
        XCTAssertEqual(counts, RoomMessageCounts(room: "room-0-0", sent: 7, received: 13, lost: 2, duplicated: 1))
    }

    func testNumbersArrivingOutOfOrderAreNotLost() {
        var tally = RoomMessageTally()
        for number in [3, 1, 2, 5, 4] { tally.receive(from: "a", sequence: number) }
        XCTAssertEqual(tally.lost, 0)
        XCTAssertEqual(tally.duplicated, 0)
    }

    private func member(_ id: String, room: String, _ counts: RoomMessageCounts?) -> PeerRecord {
        var record = PeerRecord(id: id, group: 0, role: "member", startedAtMs: 0, endedAtMs: 5_000, phases: ["join_ms": 2], outcome: .completed)
        record.messages = counts
        return record
    }

    func testRoomsSumTheirMembersAndTheTotalSumsTheRooms() {
        let peers = [
            member("m0", room: "r1", RoomMessageCounts(room: "r1", sent: 4, received: 3, lost: 1, duplicated: 0)),
            member("m1", room: "r1", RoomMessageCounts(room: "r1", sent: 4, received: 5, lost: 0, duplicated: 1)),
            member("m2", room: "r0", RoomMessageCounts(room: "r0", sent: 2, received: 2)),
            member("m3", room: "r0", RoomMessageCounts(room: "r0", sent: 2, received: 2)),
            member("m4", room: "r0", nil),  // never joined: no counts
        ]
        let rooms = RoomMessageSummary.rooms(of: peers, relayedByRoom: ["r0": 4, "r1": 8])
        XCTAssertEqual(rooms, [RoomMessageSummary(room: "r0", members: 2, sent: 4, relayed: 4, received: 4),
                               RoomMessageSummary(room: "r1", members: 2, sent: 8, relayed: 8, received: 8, lost: 1, duplicated: 1)])
        XCTAssertEqual(RoomMessageSummary.total(of: rooms),
                       RoomMessageSummary(room: "total", members: 4, sent: 12, relayed: 12, received: 12, lost: 1, duplicated: 1))
        XCTAssertEqual(RoomMessageSummary.worstFirst(rooms).map(\.room), ["r1", "r0"])
        XCTAssertNil(RoomMessageSummary.total(of: RoomMessageSummary.rooms(of: peers, relayedByRoom: nil)).relayed,
                     "no relayed figure without the server's count")
    }

    func testSummaryAndHTMLListTheRoomsTotalFirst() {
        var cell = ReportFixtures.cell("default", setup: [100], loss: [0])
        cell.rooms = [RoomMessageSummary(room: "room-0-0", members: 2, sent: 6, relayed: 6, received: 5, lost: 1),
                      RoomMessageSummary(room: "room-0-1", members: 2, sent: 6, relayed: 6, received: 6)]
        let report = ReportFixtures.report(cells: [cell])
        let summary = MarkdownSummary.render(report)
        XCTAssertTrue(summary.contains("| total | 4 | 12 | 12 | 11 | 1 | 0 |\n| room-0-0 | 2 | 6 | 6 | 5 | 1 | 0 |\n| room-0-1 | 2 | 6 | 6 | 6 | 0 | 0 |"), summary)
        let html = HTMLReport.render(report)
        XCTAssertTrue(html.contains("<h2>Rooms</h2>"))
        XCTAssertTrue(html.contains("<tr class=\"fail\"><td>total</td><td>4</td><td>12</td><td>12</td><td>11</td><td>1</td><td>0</td></tr>"), html)
        XCTAssertTrue(html.contains("<tr><td>room-0-1</td><td>2</td><td>6</td><td>6</td><td>6</td><td>0</td><td>0</td></tr>"))
    }

    func testMergedShardsAddTheirRoomsRelays() throws {
        var a = ReportFixtures.cell("default", setup: [100], loss: [0])
        var b = a
        a.peers = [member("m0", room: "r0", RoomMessageCounts(room: "r0", sent: 3, received: 3))]
        b.peers = [member("m1", room: "r0", RoomMessageCounts(room: "r0", sent: 3, received: 2, lost: 1))]
        a.rooms = RoomMessageSummary.rooms(of: a.peers, relayedByRoom: ["r0": 3])
        b.rooms = RoomMessageSummary.rooms(of: b.peers, relayedByRoom: ["r0": 3])
        let merged = try ReportMerge.merge([ReportFixtures.report(cells: [a]), ReportFixtures.report(cells: [b])])
        XCTAssertEqual(merged.cells.first?.rooms, [RoomMessageSummary(room: "r0", members: 2, sent: 6, relayed: 6, received: 5, lost: 1)])
    }

    /// Two more lost messages are a regression; twice the messages sent (a longer run) is not.
    func testCompareCountsLostMessagesAsARegressionAndMoreMessagesAsNone() {
        func run(sent: Int, lost: Int) -> RunReport {
            var metrics = MetricSet()
            metrics.increment(.messagesSent, by: sent)
            metrics.increment(.messagesLost, by: lost)
            return ReportFixtures.report(cells: [CellReport(label: "default", metrics: metrics)])
        }
        let comparison = ReportComparison(old: run(sent: 100, lost: 0), new: run(sent: 200, lost: 2))
        XCTAssertEqual(comparison.regressions.map(\.figure), ["messages_lost"])
        let sent = comparison.rows.first { $0.figure == "messages_sent" }
        XCTAssertEqual(sent.map { [$0.old, $0.new] }, [100, 200])
        XCTAssertEqual(sent?.regression, false)
    }
}
