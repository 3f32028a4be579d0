import Foundation
import Report
import WebRTCTestKit
import XCTest

/// Scenarios/mute-storm.json5 through SRS with two publishers: the seed's half (one) mutes
/// its video at 8 s and unmutes at 13 s; what its player receives meanwhile and after.
final class SRSMuteStormTests: XCTestCase {
    func testStopMute() throws { try storm(mode: "stop") }
    func testBlackMute() throws { try storm(mode: "black") }

    private func storm(mode: String) throws {
        let cell = InteropRecorder.cell(self, target: "SRS", role: "mute storm: video.mute \(mode) for 5 s, unmute timed at the player",
                                        codec: "H.264+Opus")
        let run = try SRSRun.run("mute-storm.json5", url: SRSUnderTest.sharedURL(),
                                 environment: ["DURATION_S": "16", "PUBLISHERS": "2", "MUTE_MODE": mode])
        cell.measured(run.report)
        XCTAssertEqual(run.peers.count, 4)
        XCTAssertEqual(run.peers.filter { $0.outcome == .failed }.count, 0, run.failures)
        let muted = run.players.filter { player in player.streams.contains { $0.mutes != nil } }
        XCTAssertEqual(muted.count, 1, "one publisher of two mutes, and one player plays it")
        for player in run.players {
            let video = try XCTUnwrap(player.streams.first { $0.kind == "video" }, player.id)
            print("srs mute \(mode) \(player.id): mutes \(video.mutes.map { "\($0)" } ?? "none"), frames \(video.framesReceived), "
                  + "freezes \(video.freezeCount) (\(video.freezeMs) ms), frame loss \(video.frameLossPct) %, packets \(video.packetsReceived)/\(video.packetsExpected)")
            guard let mute = video.mutes?.first else { continue }
            XCTAssertEqual(mute.mode, mode)
            XCTAssertNotNil(mute.firstFrameMs, "\(player.id): no picture after the unmute")
            XCTAssertEqual(video.freezeCount, 0, "\(player.id): the planned gap is no freeze")
            if mode == "stop" { XCTAssertEqual(mute.framesDuring, 0, "SRS replayed frames into a stopped stream") }
            else { XCTAssertGreaterThan(mute.framesDuring, 100, "SRS forwards the black frames: 30/s for 4.75 s") }
        }
        let actions = try XCTUnwrap(run.report.cells.first?.actions)
        XCTAssertEqual(actions.map(\.peers), [1, 1])
        for action in actions { print("srs mute \(mode) \(action.action) at \(action.atS) s: \(action.figures.mapValues(\.text))") }
    }
}
