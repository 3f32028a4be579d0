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
