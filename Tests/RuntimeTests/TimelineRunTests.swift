import Foundation
import Report
import Runtime
import Scenario
import XCTest

/// Timeline actions in real calls through the built-in room server, measured on the
/// receiving side from the bitstream.
final class TimelineRunTests: XCTestCase {
    private func run(_ text: String) throws -> (CellReport, ScenarioRunner.Outcome) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let (report, outcome) = ScenarioRunner(loaded: try ScenarioLoader.load(text: text),
                                               options: .init(folder: out, version: "test", progress: { _ in })).run()
        return (try XCTUnwrap(report.cells.first), outcome)
    }

    /// 640x360, then 1280x720 at 2 s, then 640x360 at 4 s, live in a P2P call: each side
    /// sees both sizes, each switch is timed (under a second: the next keyframe), and no
    /// frame after a switch's first new-size frame has the old size (survival 100 %).
    func testAResolutionSwitchInACallIsSeenAndTimedByTheReceiver() throws {
        let (cell, outcome) = try run("""
        { name: "switch", duration_s: 6, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 1, media: { video: { codec: "vp8", resolution: "640x360", fps: 30, bitrate_kbps: 600 } } }],
          timeline: [{ at_s: 2, action: "video.resolution", resolution: "1280x720" },
                     { at_s: 4, group: 0, action: "video.resolution", resolution: "640x360" }] }
        """)
        XCTAssertEqual(outcome, .passed, "\(cell.peers.map { $0.failureReason ?? "ok" })")
        XCTAssertEqual(cell.peers.count, 2)
        for peer in cell.peers {
            let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" })
            XCTAssertEqual(video.resolutions.keys.sorted(), ["1280x720", "640x360"], peer.id)
            let switches = try XCTUnwrap(video.switches, peer.id)
            XCTAssertEqual(switches.map(\.entry), [0, 1])
            XCTAssertEqual(switches.map(\.to), ["1280x720", "640x360"])
            for change in switches {
                let ms = try XCTUnwrap(change.switchMs, "\(peer.id) never saw \(change.to)")
                XCTAssertGreaterThan(ms, 0)
                XCTAssertLessThan(ms, 1000, "\(peer.id): \(change.to) after \(ms) ms")
            }
            XCTAssertEqual(video.resolutionSurvival, 100, "\(peer.id): \(video.resolutions)")
            print("\(peer.id): switch_ms \(switches.map { $0.switchMs ?? -1 }), frames by size \(video.resolutions)")
        }
    }
}
