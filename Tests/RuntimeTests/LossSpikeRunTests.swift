import Foundation
import Metrics
import Report
import Runtime
import Scenario
import XCTest

/// Issue 17's reader check on a real run: 10 % loss injected from 3 s to 5 s by two timeline
/// actions shows in the per-second series at those seconds and not elsewhere, with video
/// repaired by NACK and audio (no NACK for Opus) carrying the loss, apart in the figures,
/// and the actions marked on the chart.
final class LossSpikeRunTests: XCTestCase {
    func testInjectedLossShowsAtItsSecondsWithVideoRepairedAndAudioNot() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("spike-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let text = """
        { name: "spike", duration_s: 8, seed: 3, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 2, media: { video: { codec: "vp8", resolution: "160x90", bitrate_kbps: 150 } } }],
          timeline: [{ at_s: 3, action: "impairment", profile: { loss_pct: 10 } }, { at_s: 5, action: "impairment", profile: "clean" }] }
        """
        let (report, _) = ScenarioRunner(loaded: try ScenarioLoader.load(text: text),
                                         options: .init(folder: out, version: "test", progress: { _ in })).run()
        let cell = try XCTUnwrap(report.cells.first)
        let loss = Dictionary(cell.timeSeries.compactMap { sample in sample.lossPct.map { (sample.tS.rounded(), $0) } }) { a, _ in a }
        // Peers start within the first few hundred ms: each second after the change is well inside the window.
        for second in [2.0, 3] { XCTAssertLessThan(try XCTUnwrap(loss[second], "\(loss)"), 1, "clean before 3 s: \(loss)") }
        for second in [4.0, 5] {
            XCTAssertEqual(try XCTUnwrap(loss[second], "\(loss)"), 10, accuracy: 5, "the injected 10 % at second \(second): \(loss)")
        }
        XCTAssertLessThan(try XCTUnwrap(loss[7.0], "\(loss)"), 1, "clean again after 5 s: \(loss)")
        let streams = cell.peers.flatMap(\.streams)
        let video = streams.filter { $0.kind == "video" }, audio = streams.filter { $0.kind == "audio" }
        XCTAssertEqual(video.count, 4)
        XCTAssertEqual(audio.count, 4)
        for stream in video { XCTAssertLessThan(stream.residualLossPct, 0.5, "video recovered by NACK") }
        // 2 of ~8 s at 10 %: about 2.5 % of all audio packets, never repaired.
        for stream in audio { XCTAssertEqual(stream.residualLossPct, 2.5, accuracy: 2) }
        XCTAssertLessThan(try XCTUnwrap(cell.metrics.value(at: MetricAddress(.videoResidualLossPct, .max))), 0.5)
        XCTAssertGreaterThan(try XCTUnwrap(cell.metrics.value(at: MetricAddress(.audioResidualLossPct, .min))), 0.4)
        // report.html draws both changes as markers on the loss chart, at 3 s and 5 s.
        let html = HTMLReport.render(report)
        let lossChart = try XCTUnwrap(html.components(separatedBy: "<svg").first { $0.contains(">First-pass loss per second</text>") })
        XCTAssertEqual(lossChart.components(separatedBy: "class=\"marker\"").count - 1, 2, "the two impairment actions")
        XCTAssertEqual(cell.actions?.map(\.atS), [3, 5])
        XCTAssertEqual(cell.actions?.map(\.peers), [4, 4], "every link of the 4 peers changes")
    }
}
