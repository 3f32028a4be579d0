import Foundation
import Report
import Runtime
import Scenario
import XCTest

/// A timeline `impairment` in a real call through the built-in room server: the loss it
/// injects starts at the action's second, as the run's per-second series shows.
final class TimelineImpairmentRunTests: XCTestCase {
    /// 20 % loss on what both sides of a call receive from 3 s of a 7 s run: each second
    /// before 3 s has no loss, each second from 3 s on loses about a fifth of its packets.
    func testInjectedLossStartsAtTheActionsSecond() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-impairment-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let loaded = try ScenarioLoader.load(text: """
        { name: "impairment", duration_s: 7, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 1, media: { video: { codec: "vp8", resolution: "320x180", fps: 30, bitrate_kbps: 300 } } }],
          timeline: [{ at_s: 3, group: 0, action: "impairment", profile: { loss_pct: 20 } }] }
        """)
        let (report, _) = ScenarioRunner(loaded: loaded, options: .init(folder: out, version: "test", progress: { _ in })).run()
        let cell = try XCTUnwrap(report.cells.first)
        XCTAssertEqual(cell.peers.count, 2)
        let series = cell.timeSeries.filter { $0.lossPct != nil }
        print("loss by second: \(series.map { "\($0.tS): \($0.lossPct ?? -1)" })")
        let before = series.filter { $0.tS <= 3 }
        let after = series.filter { $0.tS - 1 >= 3.05 && $0.tS <= 6.5 }
        XCTAssertFalse(before.isEmpty)
        XCTAssertGreaterThanOrEqual(after.count, 2)
        for sample in before { XCTAssertEqual(sample.lossPct, 0, "second ending at \(sample.tS) s, before the action") }
        for sample in after {
            XCTAssertEqual(try XCTUnwrap(sample.lossPct), 20, accuracy: 10, "second ending at \(sample.tS) s, after the action")
        }
    }
}
