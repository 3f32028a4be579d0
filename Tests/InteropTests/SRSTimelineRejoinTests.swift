import Foundation
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// Timeline `rejoin` against the SRS named by `SRS_URL`: players leave politely (DTLS
/// close_notify, then SRS's session ends) and come back as new sessions of their own.
final class SRSTimelineRejoinTests: XCTestCase {
    /// One H.264 publisher, two players; at 7 s both players leave and 1 s later play again:
    /// four player records (each first session completed and marked left by the timeline,
    /// each return set up on its own and receiving video), none failed.
    func testPlayersThatRejoinAreNewSessionsWithRecordsOfTheirOwn() throws {
        let url = try SRSUnderTest.sharedURL()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("srs-rejoin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let stream = "rejoin-\(UInt32.random(in: 0...UInt32.max))"
        let text = """
        { name: "srs-rejoin", duration_s: 14, target: { kind: "srs", url: "\(url)", srs: { app: "live", api: "rtc", eip: "127.0.0.1" } },
          groups: [{ role: "publisher", count: 1, stream: { name: "\(stream)" },
                     media: { video: { codec: "h264", resolution: "640x360", fps: 30, bitrate_kbps: 600, keyframe_interval_s: 1 } } },
                   { role: "player", count: 2, start_s: 2, stream: { name: "\(stream)" },
                     media: { video: { codec: "h264", resolution: "640x360" } } }],
          timeline: [{ at_s: 7, group: 1, action: "rejoin", after_s: 1 }] }
        """
        let (report, outcome) = ScenarioRunner(loaded: try ScenarioLoader.load(text: text),
                                               options: .init(folder: out, version: "test", progress: { _ in })).run()
        let cell = try XCTUnwrap(report.cells.first)
        XCTAssertTrue(outcome == .passed || outcome == .harnessSaturated, "\(cell.peers.map { "\($0.id): \($0.failureReason ?? "ok")" })")
        let players = cell.peers.filter { $0.group == 1 }
        XCTAssertEqual(players.map(\.id).sorted(), ["g1-0", "g1-0-gen1", "g1-1", "g1-1-gen1"])
        for player in players {
            XCTAssertEqual(player.outcome, .completed, "\(player.id): \(player.failureReason ?? "")")
            XCTAssertNotNil(player.phases["setup_ms"], player.id)
            let video = try XCTUnwrap(player.streams.first { $0.kind == "video" }, player.id)
            XCTAssertGreaterThan(video.framesReceived, 10, player.id)
            XCTAssertEqual(player.leftByTimeline, player.id.hasSuffix("-gen1") ? nil : true, player.id)
        }
        let returns = players.filter { $0.id.hasSuffix("-gen1") }
        for player in returns { XCTAssertEqual(player.startedAtMs, 8000, accuracy: 200, player.id) }
        print("srs rejoin: setup_ms of the returns \(returns.map { $0.phases["setup_ms"] ?? -1 }), "
              + "first_frame_ms \(returns.map { $0.phases["first_frame_ms"] ?? -1 })")
    }
}
