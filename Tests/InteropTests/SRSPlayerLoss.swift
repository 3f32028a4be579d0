import Foundation
import Report
import WebRTCTestKit
import XCTest

/// 5 % loss injected on what the players of a shipped SRS scenario receive. SRS answers a
/// NACK by resending the original packet (same SSRC and sequence number), so the plain
/// RFC 3550 count would read about 0 %; the first-pass `loss_pct` must read the injected
/// 5 %, residual loss about 0, and the NACKed packets must come back.
enum SRSPlayerLoss {
    /// Runs `scenario` for 12 s with `environment`, records the cell `role` × `cell`, and
    /// returns the publisher's sent video stream (whose NACK count says whether SRS passed
    /// the players' NACKs on or answered them itself).
    @discardableResult
    static func check(_ test: XCTestCase, scenario: String, environment: [String: String], role: String, cell: String,
                      file: StaticString = #filePath, line: UInt = #line) throws -> SentStreamRecord? {
        let recorded = InteropRecorder.cell(test, target: "SRS", role: role, codec: cell)
        let run = try SRSRun.run(scenario, url: SRSUnderTest.sharedURL(), environment: environment.merging(["DURATION_S": "12"]) { $1 },
                                 overrides: ["groups[1].impairment.receive.loss_pct=5"])
        recorded.measured(run.report)
        XCTAssertEqual(run.peers.filter { $0.outcome == .failed }.count, 0, run.failures, file: file, line: line)
        let video = try run.playerVideo(file: file, line: line)
        let expected = video.map(\.packetsExpected).reduce(0, +)
        let received = video.map(\.packetsReceived).reduce(0, +)
        let recovered = video.compactMap(\.packetsRecovered).reduce(0, +)
        let firstPassLost = expected - received + recovered
        // Binomial: the standard deviation of 5 % over n packets is sqrt(5 * 95 / n) points; 4 of them.
        let firstPass = Double(firstPassLost) * 100 / Double(expected)
        let tolerance = 4 * (5.0 * 95.0 / Double(expected)).squareRoot()
        XCTAssertEqual(firstPass, 5, accuracy: tolerance, "first-pass video loss over \(expected) packets", file: file, line: line)
        for stream in video {
            XCTAssertEqual(stream.lossPct, 5, accuracy: 2.5, "a player's first-pass video loss", file: file, line: line)
            XCTAssertLessThanOrEqual(stream.residualLossPct, 0.5, "SRS resent what the player NACKed", file: file, line: line)
            let nacked = try XCTUnwrap(stream.packetsNacked, file: file, line: line)
            XCTAssertGreaterThanOrEqual(nacked, try XCTUnwrap(stream.packetsRecovered, file: file, line: line), "every recovery was asked for",
                                        file: file, line: line)
        }
        XCTAssertGreaterThanOrEqual(Double(recovered), Double(firstPassLost) * 0.9, "NACKed packets that SRS resent and arrived",
                                    file: file, line: line)
        let sent = run.peers.first { $0.role == "publisher" }?.sentStreams?.first { $0.kind == "video" }
        print("srs \(video.first?.codec ?? "?"): 5 % on SRS→players: first-pass \(firstPass) % of \(expected) video packets, "
              + "recovered \(recovered) of \(firstPassLost), residual \(Double(expected - received) * 100 / Double(expected)) %, "
              + "NACKed \(video.compactMap(\.packetsNacked).reduce(0, +)), NACKs at the publisher \(sent.map { "\($0.nacksReceived)" } ?? "?")")
        return sent
    }
}
