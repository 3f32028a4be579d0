import Foundation
import Report
import WebRTCTestKit
import XCTest

/// Players joining mid-GOP through SRS (Scenarios/srs-mid-gop.json5): with keyframes 1,
/// 4 and 10 s apart, each player's first frame waits for the keyframe its PLI asks for
/// (SRS forwards it to the publisher), not for the next scheduled one.
final class SRSMidGopTests: XCTestCase {
    func testAPlayerJoiningMidGOPGetsItsFirstFrameFromItsPLINotTheNextScheduledKeyframe() throws {
        let cell = InteropRecorder.cell(self, target: "SRS", role: "players joining mid-GOP: first_frame_ms vs keyframe interval 1/4/10 s",
                                        codec: "H.264+Opus")
        let run = try SRSRun.run("srs-mid-gop.json5", url: SRSUnderTest.sharedURL(), environment: ["DURATION_S": "12", "PLAYERS": "3"],
                                 overrides: (0..<3).flatMap { publisher in
                                     let name = "mid-gop-\(publisher)-\(UUID().uuidString.prefix(6))"
                                     return ["groups[\(publisher)].stream.name=\(name)", "groups[\(publisher + 3)].stream.name=\(name)"]
                                 }, streamGroups: [])
        cell.measured(run.report)
        XCTAssertEqual(run.peers.filter { $0.outcome == .failed }.count, 0, run.failures)
        for (group, interval) in [(3, 1.0), (4, 4.0), (5, 10.0)] {
            let players = run.peers.filter { $0.group == group }
            XCTAssertEqual(players.count, 3)
            let firstFrames = players.compactMap { $0.phases["first_frame_ms"] }
            let setups = players.compactMap { $0.phases["setup_ms"] }
            XCTAssertEqual(firstFrames.count, 3, "every player of the \(interval) s GOP showed a frame")
            // From connected to the first frame: the PLI's round trip and one encoded frame,
            // bounded by the encoder's 500 ms spacing between forced keyframes.
            for (first, setup) in zip(firstFrames, setups) {
                XCTAssertLessThan(first - setup, 1500, "a \(interval) s GOP: first frame \(first) ms after a \(setup) ms setup")
            }
            for player in players {
                let video = player.streams.first { $0.kind == "video" }
                print("srs mid-GOP \(player.id): start \(Int(player.startedAtMs)) ms, packets \(video?.packetsReceived ?? -1), frames \(video?.framesReceived ?? -1), plis \(video?.plis ?? -1), \(player.failureReason ?? "")")
            }
            print("srs mid-GOP \(interval) s: first_frame_ms \(firstFrames.map { Int($0) }), setup_ms \(setups.map { Int($0) })")
        }
    }
}
