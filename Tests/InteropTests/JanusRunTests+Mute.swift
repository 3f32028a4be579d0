import Foundation
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// Scenarios/janus-videoroom.json5 with a timeline: the publisher mutes its video at 2 s
/// and unmutes at 5 s; what Janus's VideoRoom forwards to the players meanwhile and after.
extension JanusRunTests {
    func testVideoRoomStopMute() throws { try assertVideoRoomMute(mode: "stop") }
    func testVideoRoomBlackMute() throws { try assertVideoRoomMute(mode: "black") }

    private func assertVideoRoomMute(mode: String) throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "VideoRoom video.mute \(mode) for 3 s, unmute timed at the players",
                                        codec: "VP8+Opus")
        let janus = try startJanus()
        defer { janus.stop() }
        let (report, outcome) = try runVideoRoom(janus, seconds: 8,
                                                 timeline: "[{ at_s: 2, group: 0, action: 'video.mute', mode: '\(mode)' }, { at_s: 5, group: 0, action: 'video.unmute' }]")
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { "\($0.id): \($0.failureReason ?? "ok")" })")
        let players = peers.filter { $0.role == "player" }
        XCTAssertEqual(players.count, 2)
        for player in players {
            let video = try XCTUnwrap(player.streams.first { $0.kind == "video" }, "Janus forwarded the feed")
            let mute = try XCTUnwrap(video.mutes?.first, player.id)
            print("janus mute \(mode) \(player.id): frames during \(mute.framesDuring), unmute first packet \(mute.firstPacketMs ?? -1) ms, "
                  + "first frame \(mute.firstFrameMs ?? -1) ms, frames \(video.framesReceived), freezes \(video.freezeCount), "
                  + "frame loss \(video.frameLossPct) %, plis \(video.plis)")
            XCTAssertNotNil(mute.firstFrameMs, "\(player.id): no picture after the unmute")
            XCTAssertEqual(video.freezeCount, 0, "\(player.id): the planned gap is no freeze")
            if mode == "stop" { XCTAssertEqual(mute.framesDuring, 0, "Janus sent frames into a stopped stream") }
            else { XCTAssertGreaterThan(mute.framesDuring, 60, "Janus forwards the black frames: 30/s for 2.75 s") }
        }
        for action in report.cells.first?.actions ?? [] { print("janus mute \(mode) \(action.action) at \(action.atS) s: \(action.figures.mapValues(\.text))") }
    }
}
