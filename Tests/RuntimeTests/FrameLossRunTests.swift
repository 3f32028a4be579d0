import Foundation
import Report
import Runtime
import Scenario
import XCTest

/// Issue 19 item 4: a frame is lost only when one of its packets never came. Real calls
/// through the built-in room server under 5 % i.i.d. receive loss (media, NACKs and
/// resends alike, so a packet may need two or three NACK rounds): every gap is NACKed, and
/// a frame waits while its packets may still be resent. 360p at 1 Mbps: frames of about
/// four packets, so about one in five misses one. Video only: the frames an audio stream expects
/// come from RTP timestamps, and it has no NACK to wait for.
final class FrameLossRunTests: XCTestCase {
    /// A run the harness marked saturated (its loop stalled: every peer's timers, resends
    /// and arrivals waited together; docs/metrics.md, "Whose fault is a bad figure") says
    /// nothing about the network and is run again, up to three times.
    private func runCalls(seed: Int, seconds: Int) throws -> [PeerRecord] {
        for attempt in 1...3 {
            let (outcome, peers) = try runCallsOnce(seed: seed, seconds: seconds)
            if outcome != .harnessSaturated {
                XCTAssertEqual(outcome, .passed)
                return peers
            }
            print("seed \(seed) attempt \(attempt): harness saturated, run again")
        }
        XCTFail("seed \(seed): the harness was saturated in three runs; this machine is too busy to measure")
        return []
    }

    private func runCallsOnce(seed: Int, seconds: Int) throws -> (ScenarioRunner.Outcome, [PeerRecord]) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("frames-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let text = """
        { name: "frames", duration_s: \(seconds), seed: \(seed), target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 2, arrival: { rate_per_s: 20 },
                     media: { video: { codec: "vp8", resolution: "640x360", fps: 30, bitrate_kbps: 1000 }, audio: { enabled: false },
                              receive_timeout_s: \(seconds) },
                     impairment: { receive: { loss_pct: 5 } } }] }
        """
        let runner = ScenarioRunner(loaded: try ScenarioLoader.load(text: text), options: .init(folder: out, version: "test", progress: { _ in }))
        let (report, outcome) = runner.run()
        return (outcome, try XCTUnwrap(report.cells.first?.peers))
    }

    /// Frames the stream's frame loss says were expected and not received.
    private func framesLost(_ stream: StreamRecord) -> Int {
        guard stream.frameLossPct < 100 else { return 0 }
        let expected = Double(stream.framesReceived) / (1 - stream.frameLossPct / 100)
        return Int((expected - Double(stream.framesReceived)).rounded())
    }

    /// Without residual loss no frame is lost and none is dropped late; with some (a
    /// packet lost through all ten NACK rounds, or still missing when the call ended) no
    /// more frames are lost than packets were never recovered. Three seeds, 8 s each.
    func testWithEveryPacketRecoveredNoFrameIsLost() throws {
        for seed in [11, 12, 13] {
            let peers = try runCalls(seed: seed, seconds: 8)
            XCTAssertEqual(peers.filter { $0.outcome == .completed }.count, 4, "\(peers.map { $0.failureReason ?? "" })")
            for peer in peers {
                XCTAssertEqual(peer.streams.map(\.kind), ["video"], peer.id)
                for stream in peer.streams {
                    let unrecovered = Int((stream.residualLossPct * Double(stream.packetsExpected) / 100).rounded())
                    let lost = framesLost(stream)
                    let about = "seed \(seed) \(peer.id) \(stream.kind): loss \(stream.lossPct) %, residual \(stream.residualLossPct) % (\(unrecovered) of \(stream.packetsExpected) packets), frames \(stream.framesReceived), lost \(lost) (\(stream.frameLossPct) %), dropped late \(stream.framesDroppedLate ?? -1), incomplete \(stream.framesIncomplete ?? -1)"
                    print(about)
                    XCTAssertGreaterThan(stream.lossPct, 0, about)
                    XCTAssertEqual(stream.framesDroppedLate, 0, about)
                    XCTAssertLessThanOrEqual(lost, unrecovered, about)
                }
            }
        }
    }
}
