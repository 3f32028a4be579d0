import Foundation
import Metrics
import Report
import Runtime
import Scenario
import XCTest

/// report.json's per-second peer counts are traceable to peers.ndjson: recomputed from the
/// records alone (a member connects when its join is answered, `startedAtMs + signaling_ms`,
/// and counts until it ends), every sample of the run agrees.
final class TimeSeriesFromPeerLogTests: XCTestCase {
    /// Five members arriving 0.625 s apart and staying 2.2 s, so the counts move between
    /// samples and never at one: connected 2, 4, 3, 2, 0 at 1...5 s.
    func testPeerCountsPerSecondEqualTheCountsRecomputedFromPeersNdjson() throws {
        let text = """
        { name: "counts", duration_s: 5.2, target: { kind: "builtin-room" },
          groups: [{ role: "member", count: 5, duration_s: 2.2, arrival: { rate_per_s: 1.6 } }] }
        """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("series-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let (report, outcome) = ScenarioRunner(loaded: try ScenarioLoader.load(text: text),
                                               options: .init(folder: folder, version: "test", progress: { _ in })).run()
        XCTAssertEqual(outcome, .passed)
        try ReportWriter.write(report, to: folder)
        let written = try ReportWriter.read(folder.path)
        let records = try PeerLog.read(folder.appendingPathComponent("peers.ndjson"))
        XCTAssertEqual(records.count, 5)

        func counts(at tS: Double) -> (connecting: Int, connected: Int, failed: Int) {
            let ms = tS * 1000
            var result = (connecting: 0, connected: 0, failed: 0)
            for record in records where record.startedAtMs <= ms {
                let connectedAt = record.phases["signaling_ms"].map { record.startedAtMs + $0 }
                if record.endedAtMs <= ms {
                    if record.outcome == .failed { result.failed += 1 }
                } else if let connectedAt, connectedAt <= ms {
                    result.connected += 1
                } else {
                    result.connecting += 1
                }
            }
            return result
        }
        // The closing sample (at the end, for the last bytes) repeats the last tick's counts.
        let ticks = try XCTUnwrap(written.cells.first?.timeSeries.dropLast())
        XCTAssertEqual(ticks.count, 5, "a sample each second")
        for sample in ticks {
            let recomputed = counts(at: sample.tS)
            XCTAssertEqual([sample.connectingPeers, sample.connectedPeers, sample.failedPeers],
                           [recomputed.connecting, recomputed.connected, recomputed.failed], "at \(sample.tS) s")
        }
        XCTAssertEqual(ticks.map(\.connectedPeers), [2, 4, 3, 2, 0])
        // Two worker samples make the first CPU figure; a tick before the next one repeats it.
        XCTAssertTrue(ticks.dropFirst(2).allSatisfy { $0.cpuPct != nil }, "the worker's CPU from the third tick on")
    }
}
