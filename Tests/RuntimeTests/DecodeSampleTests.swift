@testable import Runtime
import Scenario
import XCTest

/// `run.decode_sample_pct`: which received streams are fully decoded.
final class DecodeSampleTests: XCTestCase {
    /// How many of `players` players the plan of an SRS scenario decodes at `percent`.
    private func sampled(percent: Double, players: Int) throws -> Int {
        let loaded = try ScenarioLoader.load(text: """
            { name: "s", duration_s: 10, target: { kind: "srs", url: "http://127.0.0.1:1985" },
              groups: [{ role: "player", count: \(players), arrival: { rate_per_s: 1000 } }] }
            """)
        return ExecutionPlan(scenario: loaded.scenario, workers: 1).peers.filter { WorkerRun.isSampled($0, percent: percent) }.count
    }

    func testZeroPercentDecodesNoStreamAndAnyOtherShareAtLeastOne() throws {
        XCTAssertEqual(try sampled(percent: 0, players: 200), 0, "0 must mean none: decoding one stream cost worker 0 about 3 % of a core")
        XCTAssertEqual(try sampled(percent: 0.1, players: 10), 1, "a share above 0 still decodes the group's first peer")
        XCTAssertEqual(try sampled(percent: 5, players: 200), 10)
        XCTAssertEqual(try sampled(percent: 100, players: 7), 7)
    }
}
