import Foundation
import Report
import WebRTCTestKit
import XCTest

/// An SRS of the test's own killed (SIGKILL) in the middle of a run: every peer ends with
/// a reason on its record, the verdict is not a pass, and the run ends on time.
final class SRSKillTests: XCTestCase {
    func testSRSKilledMidRunFailsEveryPeerWithAReason() throws {
        InteropRecorder.cell(self, target: "SRS", role: "SRS killed mid-run (SIGKILL): every peer ends with a reason", codec: "H.264+Opus")
        let srs = try SRSUnderTest.startOwn()
        let run = try SRSRun.run("srs-publish-play.json5", url: srs.url, environment: ["DURATION_S": "20", "PLAYERS": "2"]) { started in
            Thread.sleep(until: started.addingTimeInterval(5))
            srs.kill()
        }
        print("srs killed: \(run.failures) outcome \(run.outcome) duration \(run.report.durationS)")
        XCTAssertEqual(run.peers.count, 3)
        XCTAssertNotEqual(run.outcome, .passed)
        XCTAssertLessThan(run.report.durationS, 26, "the run ends on time")
        for peer in run.peers {
            XCTAssertEqual(peer.outcome, .failed, "\(peer.id)")
            let reason = try XCTUnwrap(peer.failureReason, "\(peer.id)")
            XCTAssertTrue(reason.hasPrefix("connection lost") || reason.hasPrefix("media stopped"), reason)
        }
    }
}

/// SRS killed and started again mid-run, with peers that reconnect: each lost
/// connection is a failed record with its reason, each reconnect a new peer measured as
/// a new setup, and by the end every publisher and player is up and receiving again.
final class SRSRestartTests: XCTestCase {
    func testPeersThatReconnectComeBackAfterSRSRestarts() throws {
        InteropRecorder.cell(self, target: "SRS", role: "SRS restarted mid-run: peers with `reconnect` come back", codec: "H.264+Opus")
        let srs = try SRSUnderTest.startOwn()
        let run = try SRSRun.run("srs-publish-play.json5", url: srs.url, environment: ["DURATION_S": "30", "PLAYERS": "2"],
                                 overrides: ["groups[0].reconnect.attempts=5", "groups[1].reconnect.attempts=8",
                                             "thresholds=[\"failed_peers < 40\"]"]) { started in
            Thread.sleep(until: started.addingTimeInterval(4))
            srs.kill()
            Thread.sleep(until: started.addingTimeInterval(6))
            try? srs.start()
        }
        print("srs restarted: \(run.failures)")
        let lastAttempts = Dictionary(grouping: run.peers) { $0.id.split(separator: "-r").first.map(String.init) ?? $0.id }
            .mapValues { $0.max { $0.startedAtMs < $1.startedAtMs }! }
        XCTAssertEqual(lastAttempts.count, 3, "one publisher and two players")
        for (slot, last) in lastAttempts {
            XCTAssertEqual(last.outcome, .completed, "\(slot)'s last connection: \(last.failureReason ?? "")")
            XCTAssertNotEqual(last.id, slot, "\(slot) reconnected")
        }
        for peer in run.peers where peer.outcome == .failed {
            XCTAssertNotNil(peer.failureReason, peer.id)
        }
        for player in run.players where player.outcome == .completed {
            XCTAssertGreaterThan(player.streams.first { $0.kind == "video" }?.framesReceived ?? 0, 30, "\(player.id) plays again")
        }
        XCTAssertLessThan(run.report.durationS, 36, "the run ends on time")
    }
}
