import Scenario
import XCTest

/// `run --shard I/N`: each shard keeps a deterministic part of the whole plan, so the
/// shards together run exactly the scenario (ExecutionPlan+Shards).
final class ExecutionPlanShardTests: XCTestCase {
    private func scenario(_ text: String) throws -> Scenario { try ScenarioLoader.load(text: text).scenario }

    private func shards(_ scenario: Scenario, count: Int, workers: Int = 1) throws -> [ExecutionPlan] {
        try (0..<count).map { ExecutionPlan(scenario: scenario, workers: workers, shard: try Shard(index: $0, count: count, source: "test")) }
    }

    /// A peer without its worker, which is the only thing a shard chooses anew.
    private func placement(_ peer: ExecutionPlan.Peer) -> String {
        "\(peer.id) \(peer.startMs)-\(peer.stopMs) \(peer.room ?? "") \(peer.stream ?? "")"
    }

    private let members = """
    { name: "m", duration_s: 30, target: { kind: "builtin-room", room: { capacity: 3 } },
      groups: [{ role: "pair", count: 7, arrival: { rate_per_s: 4 } },
               { role: "member", count: 10,
                 arrival: { stages: [{ duration_s: 5, target: 10 }, { duration_s: 5, target: 2 }, { duration_s: 5, target: 7 }] } }] }
    """

    func testTheShardsTogetherAreTheWholePlanWithEachCallAndRoomOnOneShard() throws {
        let scenario = try scenario(members)
        let whole = ExecutionPlan(scenario: scenario, workers: 1)
        let parts = try shards(scenario, count: 3, workers: 2)
        XCTAssertEqual(parts.flatMap(\.peers).map(placement).sorted(), whole.peers.map(placement).sorted())
        XCTAssertEqual(parts.map(\.peers.count), [10, 9, 10], "7 calls, then 4 rooms of up to 3 members (15 lives), dealt round-robin")
        for room in Set(whole.peers.compactMap(\.room)) {
            XCTAssertEqual(parts.filter { $0.peers.contains { $0.room == room } }.count, 1, "\(room) is on one shard")
        }
        // The same slice every time: the plan is a pure function of the scenario.
        XCTAssertEqual(try shards(scenario, count: 3, workers: 2), parts)
    }

    func testAnArrivalRateIsDividedAmongTheShards() throws {
        let scenario = try scenario("""
        { name: "p", duration_s: 10, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 4, arrival: { rate_per_s: 2 } }] }
        """)
        let parts = try shards(scenario, count: 2, workers: 2)
        XCTAssertEqual(parts[0].peers.map(\.id), ["g0-0-caller", "g0-0-callee", "g0-2-caller", "g0-2-callee"])
        XCTAssertEqual(parts[0].peers.map(\.startMs), [0, 0, 1000, 1000], "one call a second: half the scenario's rate")
        XCTAssertEqual(parts[1].peers.map(\.startMs), [500, 500, 1500, 1500])
        XCTAssertEqual(parts[1].peers.map(\.worker), [0, 0, 1, 1], "a shard deals its own calls over its workers")
    }

    func testStageTargetsAreSpreadSoTheShardsLevelsAddUpToTheTarget() throws {
        let scenario = try scenario("""
        { name: "s", duration_s: 20, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 5,
                     arrival: { stages: [{ duration_s: 5, target: 5 }, { duration_s: 5, target: 5 }, { duration_s: 5, target: 0 }] } }] }
        """)
        let parts = try shards(scenario, count: 2)
        /// Calls alive at `ms`.
        func level(_ plan: ExecutionPlan, at ms: Int64) -> Int {
            plan.peers.filter { $0.side == .caller && $0.startMs <= ms && ms < $0.stopMs }.count
        }
        XCTAssertEqual(parts.map { level($0, at: 7000) }, [3, 2], "the hold at target 5")
        XCTAssertEqual(parts.map { level($0, at: 12_000) }, [2, 1], "5 -> 0 over 5 s: 3 left at 12 s (LIFO)")
        XCTAssertEqual(parts.map { level($0, at: 3000) }, [2, 1], "0 -> 5 over 5 s: 3 up at 3 s")
    }

    func testAPublisherTakesThePlayersOfItsStreamAlong() throws {
        let scenario = try scenario("""
        { name: "f", duration_s: 10, target: { kind: "srs", url: "http://127.0.0.1:1985" },
          groups: [{ role: "publisher", count: 3, stream: { name: "bench", per_publisher: true } },
                   { role: "player", count: 9, start_s: 1, stream: { name: "bench", per_publisher: true } }] }
        """)
        let parts = try shards(scenario, count: 3)
        for (index, part) in parts.enumerated() {
            XCTAssertEqual(Set(part.peers.compactMap(\.stream)), ["bench-\(index)"], "shard \(index)")
            XCTAssertEqual(part.peers.count, 4, "a publisher and its 3 players")
        }
    }

    func testPlayersOfOneSharedStreamAreSpreadLikeOverWorkers() throws {
        let scenario = try scenario("""
        { name: "f", duration_s: 10, target: { kind: "srs", url: "http://127.0.0.1:1985" },
          groups: [{ role: "publisher", count: 1 }, { role: "player", count: 5, start_s: 1 }] }
        """)
        XCTAssertEqual(try shards(scenario, count: 2).map(\.peers.count), [3, 3], "the publisher and players 1 and 3; players 0, 2 and 4")
    }

    func testShardValuesAreCheckedWithTheValueAndWhatIsAllowed() {
        XCTAssertEqual(try Shard(parsing: "2/4"), try Shard(index: 2, count: 4, source: "x"))
        for (text, message) in [
            ("3/2", "--shard 3/2: with 2 shard(s) the index must be from 0 to 1 (shards are numbered from 0, like JOB_COMPLETION_INDEX), not 3"),
            ("0/0", "--shard 0/0: the number of shards must be from 1 to 10000, not 0"),
            ("-1/2", "--shard -1/2: with 2 shard(s) the index must be from 0 to 1 (shards are numbered from 0, like JOB_COMPLETION_INDEX), not -1"),
            ("two", "--shard two: expected I/N, two whole numbers such as 0/4 (shard 0 of 4; I from 0 to N-1)"),
            ("1/2/3", "--shard 1/2/3: expected I/N, two whole numbers such as 0/4 (shard 0 of 4; I from 0 to N-1)"),
        ] {
            XCTAssertThrowsError(try Shard(parsing: text)) { XCTAssertEqual(($0 as? ShardError)?.description, message) }
        }
    }

    func testAnIndexedJobsEnvironmentNamesTheShard() throws {
        XCTAssertEqual(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "3", "RTCSWARM_SHARDS": "4"]), try Shard(parsing: "3/4"))
        XCTAssertNil(try Shard.fromEnvironment(["HOME": "/root"]))
        XCTAssertThrowsError(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "3"])) {
            XCTAssertEqual("\($0)", "JOB_COMPLETION_INDEX=3 is set but RTCSWARM_SHARDS is not: set it to the Job's completions")
        }
        XCTAssertThrowsError(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "4", "RTCSWARM_SHARDS": "4"])) {
            XCTAssertTrue("\($0)".hasPrefix("JOB_COMPLETION_INDEX=4 RTCSWARM_SHARDS=4: with 4 shard(s) the index must be from 0 to 3"), "\($0)")
        }
    }
}
