import Foundation
import Report
import Runtime
import Scenario
import XCTest

/// `media.video.rtx` end to end between rtcswarm peers, which take RTX: under 5 % loss
/// `auto` keeps resending as RTX (the receiver never re-asks, so RTX is judged
/// effective), and `off` offers no RTX, so every resend is plain.
final class RtxScenarioTests: XCTestCase {
    private func sentVideo(rtx: String) throws -> [SentStreamRecord] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rtx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let text = """
        { name: "rtx", duration_s: 4, seed: 5, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 1,
                     media: { video: { codec: "vp8", resolution: "320x180", bitrate_kbps: 300, rtx: "\(rtx)" }, audio: { enabled: false } },
                     impairment: { receive: { loss_pct: 5 } } }] }
        """
        let (report, _) = ScenarioRunner(loaded: try ScenarioLoader.load(text: text), options: .init(folder: out, version: "test", progress: { _ in })).run()
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(peers.filter { $0.outcome == .completed }.count, 2, "\(peers.map { $0.failureReason ?? "ok" })")
        return peers.compactMap { $0.sentStreams?.first { $0.kind == "video" } }
    }

    func testAutoKeepsRTXWithAReceiverThatTakesIt() throws {
        let sent = try sentVideo(rtx: "auto")
        XCTAssertEqual(sent.count, 2)
        for stream in sent {
            XCTAssertGreaterThan(stream.retransmissions, 0)
            XCTAssertEqual(stream.rtxRetransmissions, stream.retransmissions, "every resend on the RTX stream")
            XCTAssertEqual(stream.rtxIneffective, false)
            XCTAssertEqual(stream.recovery, "rtx")
        }
    }

    func testOffOffersNoRTXAndResendsPlainly() throws {
        let sent = try sentVideo(rtx: "off")
        XCTAssertEqual(sent.count, 2)
        for stream in sent {
            XCTAssertGreaterThan(stream.retransmissions, 0)
            XCTAssertEqual(stream.rtxRetransmissions, 0)
            XCTAssertEqual(stream.rtxIneffective, false)
            XCTAssertEqual(stream.recovery, "plain")
        }
    }
}
