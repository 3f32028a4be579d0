import Scenario
import XCTest

final class ExecutionPlanTests: XCTestCase {
    private func plan(_ text: String, workers: Int = 1) throws -> ExecutionPlan {
        ExecutionPlan(scenario: try ScenarioLoader.load(text: text).scenario, workers: workers)
    }

    private typealias Row = (group: Int, index: Int, side: ExecutionPlan.Side, start: Int64, stop: Int64, worker: Int, room: String?, stream: String?)

    private func assertPlan(_ plan: ExecutionPlan, _ rows: [Row], file: StaticString = #filePath, line: UInt = #line) {
        let actual = plan.peers.map { Row($0.group, $0.index, $0.side, $0.startMs, $0.stopMs, $0.worker, $0.room, $0.stream) }
        XCTAssertEqual(actual.count, rows.count, "peer count", file: file, line: line)
        for (a, e) in zip(actual, rows) {
            XCTAssertTrue(a.group == e.group && a.index == e.index && a.side == e.side && a.start == e.start && a.stop == e.stop
                          && a.worker == e.worker && a.room == e.room && a.stream == e.stream,
                          "got \(a), expected \(e)", file: file, line: line)
        }
    }

    func testFixedRatePairsShareAWorkerAndARoom() throws {
        let result = try plan("""
        { name: "p", duration_s: 10, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 3, arrival: { rate_per_s: 2 }, start_s: 1 }] }
        """, workers: 2)
        XCTAssertEqual(result.durationMs, 10_000)
        assertPlan(result, [
            (0, 0, .caller, 1000, 10_000, 0, "room-0-0", nil), (0, 0, .callee, 1000, 10_000, 0, "room-0-0", nil),
            (0, 1, .caller, 1500, 10_000, 1, "room-0-1", nil), (0, 1, .callee, 1500, 10_000, 1, "room-0-1", nil),
            (0, 2, .caller, 2000, 10_000, 0, "room-0-2", nil), (0, 2, .callee, 2000, 10_000, 0, "room-0-2", nil),
        ])
    }

    func testAChromiumPartnerLeavesOnlyTheCallersToRtcswarm() throws {
        let result = try plan("""
        { name: "b", duration_s: 5, target: { kind: "builtin-room" },
          groups: [{ role: "pair", partner: "chromium", count: 2, arrival: { rate_per_s: 4 } }] }
        """)
        assertPlan(result, [(0, 0, .caller, 0, 5000, 0, "room-0-0", nil), (0, 1, .caller, 250, 5000, 0, "room-0-1", nil)])
    }

    func testStagesRampUpHoldAndRampDownLastInFirstOut() throws {
        let result = try plan("""
        { name: "s", duration_s: 20, target: { kind: "builtin-room" },
          groups: [{ role: "member", count: 4,
                     arrival: { stages: [{ duration_s: 5, target: 4 }, { duration_s: 2, target: 4 }, { duration_s: 4, target: 0 }] } }] }
        """)
        assertPlan(result, [
            (0, 0, .single, 1250, 11_000, 0, "room-0-0", nil),
            (0, 1, .single, 2500, 10_000, 0, "room-0-0", nil),
            (0, 2, .single, 3750, 9_000, 0, "room-0-1", nil),
            (0, 3, .single, 5000, 8_000, 0, "room-0-1", nil),
        ])
    }

    func testRampingUpAgainStartsNewPeersInTheFreedSlots() throws {
        let result = try plan("""
        { name: "s", duration_s: 10, target: { kind: "builtin-room" },
          groups: [{ role: "member", count: 2,
                     arrival: { stages: [{ duration_s: 2, target: 2 }, { duration_s: 2, target: 0 }, { duration_s: 2, target: 1 }] } }] }
        """)
        assertPlan(result, [
            (0, 0, .single, 1000, 4000, 0, "room-0-0", nil),
            (0, 1, .single, 2000, 3000, 0, "room-0-0", nil),
            (0, 0, .single, 6000, 10_000, 0, "room-0-0", nil),
        ])
    }

    func testGroupDurationAndStartBoundEachPeer() throws {
        let result = try plan("""
        { name: "d", duration_s: 4, target: { kind: "builtin-room" },
          groups: [{ role: "member", count: 5, arrival: { rate_per_s: 1 }, duration_s: 2, start_s: 0.5 }] }
        """)
        // Slot 4 would start at 4.5 s, after the run: it never starts. Slot 3 is cut at the end.
        assertPlan(result, [
            (0, 0, .single, 500, 2500, 0, "room-0-0", nil),
            (0, 1, .single, 1500, 3500, 0, "room-0-0", nil),
            (0, 2, .single, 2500, 4000, 0, "room-0-1", nil),
            (0, 3, .single, 3500, 4000, 0, "room-0-1", nil),
        ])
    }

    func testPlayersAreSpreadOverPerPublisherStreams() throws {
        let result = try plan("""
        { name: "f", duration_s: 10, target: { kind: "srs", url: "http://127.0.0.1:1985" },
          groups: [{ role: "publisher", count: 2, arrival: { rate_per_s: 10 }, stream: { name: "bench", per_publisher: true } },
                   { role: "player", count: 3, arrival: { rate_per_s: 10 }, start_s: 1, stream: { name: "bench", per_publisher: true } }] }
        """, workers: 2)
        assertPlan(result, [
            (0, 0, .single, 0, 10_000, 0, nil, "bench-0"),
            (0, 1, .single, 100, 10_000, 1, nil, "bench-1"),
            (1, 0, .single, 1000, 10_000, 0, nil, "bench-0"),
            (1, 1, .single, 1100, 10_000, 1, nil, "bench-1"),
            (1, 2, .single, 1200, 10_000, 0, nil, "bench-0"),
        ])
    }

    func testRoomCapacityGroupsMembers() throws {
        let result = try plan("""
        { name: "m", duration_s: 10, target: { kind: "builtin-room", room: { capacity: 3, room_prefix: "r" } },
          groups: [{ role: "member", count: 7, arrival: { rate_per_s: 1000 } }] }
        """)
        XCTAssertEqual(result.peers.map { $0.room ?? "" }, ["r0-0", "r0-0", "r0-0", "r0-1", "r0-1", "r0-1", "r0-2"])
        XCTAssertEqual(result.peers.map(\.startMs), [0, 1, 2, 3, 4, 5, 6])
    }

    /// Issue 21 item 1: stages that outlast the run (which validation refuses) and values
    /// no run reaches make a plan bounded by the run, not a trap.
    func testStagesAndStaysBeyondTheRunEndWithTheRun() throws {
        var scenario = try ScenarioLoader.load(text: """
        { name: "s", duration_s: 60, target: { kind: "builtin-room" },
          groups: [{ role: "member", count: 4, start_s: 2, arrival: { stages: [{ duration_s: 20, target: 4 }, { duration_s: 35, target: 4 }] } },
                   { role: "member", count: 2, duration_s: 30, arrival: { rate_per_s: 1 } }] }
        """).scenario
        scenario.durationS = 5
        assertPlan(ExecutionPlan(scenario: scenario, workers: 1), [
            (1, 0, .single, 0, 5000, 0, "room-1-0", nil), (1, 1, .single, 1000, 5000, 0, "room-1-0", nil),
        ])
        scenario.groups[1].durationS = .infinity
        scenario.groups[1].arrival?.ratePerS = 1e-300
        scenario.groups[0].arrival?.stages?[0].durationS = 1e300
        XCTAssertEqual(ExecutionPlan(scenario: scenario, workers: 1).peers.map(\.stopMs), [5000])
    }
}
