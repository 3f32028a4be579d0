import Foundation
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// Timeline resolution switches of a publisher, 640x360 -> 1280x720 -> 640x360, through a
/// media server to its players (issue 14): each player reads both sizes from the bitstream,
/// each switch is timed and costed, and no frame after a switch carries the old size.
final class ServerResolutionSwitchTests: XCTestCase {
    /// The two switches, at 3 s and at 5.5 s of an 8 s run; players join at 1 s.
    private static func scenario(target: String, codec: String) -> String {
        let stream = "switch-\(UUID().uuidString.prefix(8))"
        return """
        { name: "resolution-switch", duration_s: 8, target: \(target),
          groups: [
            { role: "publisher", count: 1, stream: { name: "\(stream)" },
              media: { video: { codec: "\(codec)", resolution: "640x360", fps: 30, bitrate_kbps: 800 } } },
            { role: "player", count: 2, start_s: 1, stream: { name: "\(stream)" },
              media: { video: { codec: "\(codec)", resolution: "640x360" } } },
          ],
          timeline: [{ at_s: 3, group: 0, action: "video.resolution", resolution: "1280x720" },
                     { at_s: 5.5, group: 0, action: "video.resolution", resolution: "640x360" }] }
        """
    }

    func testASwitchThroughJanusVideoRoomReachesEveryPlayer() throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "`rtcswarm run` VideoRoom timeline resolution switch 360p → 720p → 360p", codec: "VP8+Opus")
        let janus = try JanusServer.startAnswering()
        defer { janus.stop() }
        let target = """
        { kind: "janus", url: "http://127.0.0.1:\(janus.port)/janus", janus: { plugin: "videoroom", room_id: 1234 } }
        """
        try assertSwitches(run(Self.scenario(target: target, codec: "vp8")), cell: cell, server: "janus")
    }

    func testASwitchThroughSRSReachesEveryPlayer() throws {
        let cell = InteropRecorder.cell(self, target: "SRS", role: "`rtcswarm run` timeline resolution switch 360p → 720p → 360p", codec: "H.264+Opus")
        let target = #"{ kind: "srs", url: "\#(try SRSUnderTest.sharedURL())" }"#
        try assertSwitches(run(Self.scenario(target: target, codec: "h264")), cell: cell, server: "srs")
    }

    private func run(_ text: String) throws -> RunReport {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("switch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        return ScenarioRunner(loaded: try ScenarioLoader.load(text: text), options: .init(folder: out, version: "test", progress: { _ in })).run().0
    }

    /// Every player saw both sizes, both switches in under a second, and survival 100 % (no
    /// frame after a switch's first new-size frame had the old size).
    private func assertSwitches(_ report: RunReport, cell: InteropCell, server: String) throws {
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        let players = peers.filter { $0.role == "player" }
        XCTAssertEqual(players.count, 2, "\(peers.map { "\($0.id): \($0.failureReason ?? "ok")" })")
        for player in players {
            XCTAssertEqual(player.outcome, .completed, player.failureReason ?? "")
            let video = try XCTUnwrap(player.streams.first { $0.kind == "video" }, "\(player.id) received no video")
            XCTAssertEqual(video.resolutions.keys.sorted(), ["1280x720", "640x360"], player.id)
            let switches = try XCTUnwrap(video.switches, player.id)
            XCTAssertEqual(switches.map(\.entry), [0, 1])
            XCTAssertEqual(switches.map(\.to), ["1280x720", "640x360"])
            for change in switches {
                let ms = try XCTUnwrap(change.switchMs, "\(player.id) never saw \(change.to)")
                XCTAssertGreaterThan(ms, 0)
                // Mostly the new encoder's start and first keyframe (the note of issue 14): about
                // 200 ms on a quiet machine, over 1 s when other builds share its two cores.
                XCTAssertLessThan(ms, 2000, "\(player.id): \(change.to) after \(ms) ms")
                XCTAssertNotNil(change.freezeMs)
                XCTAssertNotNil(change.framesLost)
            }
            XCTAssertEqual(video.resolutionSurvival, 100, "\(player.id): \(video.resolutions)")
            print("\(server) switch \(player.id): " + switches.map {
                "\($0.to) switch_ms \($0.switchMs ?? -1) freeze_ms \($0.freezeMs ?? -1) frames_lost \($0.framesLost ?? -1)"
            }.joined(separator: "; ") + ", frames by size \(video.resolutions)")
        }
    }

    /// Scenarios/resolution-switch.json5 as shipped: every player sees each step's size,
    /// 1440p included, each switch arrives (timed), and no frame after one has the old size.
    func testTheShippedSwitchLadderThroughSRS() throws {
        let cell = InteropRecorder.cell(self, target: "SRS", role: "`rtcswarm run` resolution-switch.json5: 360p → 720p → 1080p → 1440p → 720p live", codec: "H.264+Opus")
        let run = try SRSRun.run("resolution-switch.json5", url: SRSUnderTest.sharedURL())
        cell.measured(run.report)
        XCTAssertEqual(run.players.count, 3, run.failures)
        print("srs ladder peers: \(run.failures) warnings: \(run.report.warnings ?? [])")
        for player in run.players {
            print("srs ladder \(player.id) streams: \(player.streams.map { "\($0.kind) \($0.framesReceived) \($0.resolutions)" })")
            let video = try XCTUnwrap(player.streams.first { $0.kind == "video" }, "\(player.id) received no video")
            XCTAssertEqual(video.resolutions.keys.sorted(), ["1280x720", "1920x1080", "2560x1440", "640x360"], player.id)
            let switches = try XCTUnwrap(video.switches, player.id)
            XCTAssertEqual(switches.map(\.to), ["1280x720", "1920x1080", "2560x1440", "1280x720"])
            XCTAssertEqual(switches.filter { $0.switchMs == nil }.count, 0, "\(player.id): \(switches)")
            XCTAssertEqual(video.resolutionSurvival, 100, "\(player.id): \(video.resolutions)")
            print("srs ladder \(player.id): " + switches.map {
                "\($0.to) switch_ms \($0.switchMs ?? -1) freeze_ms \($0.freezeMs ?? -1) frames_lost \($0.framesLost ?? -1)"
            }.joined(separator: "; ") + ", frames by size \(video.resolutions)")
        }
        // Not the run's outcome: encoding 1440p in a debug build on two busy cores can
        // saturate the harness, which makes the run invalid though every peer completed.
        XCTAssertEqual(run.peers.filter { $0.outcome != .completed }.count, 0, run.failures)
    }
}
