import Foundation
import Report
import XCTest

/// One test's cell of the interop matrix while the test runs: the figures it measured, and
/// at its end the result file (see `InteropRecorder`).
public final class InteropCell: @unchecked Sendable {
    private let lock = NSLock()
    private var result: InteropResult

    init(target: String, version: String?, role: String, codec: String) {
        result = InteropResult(target: target, targetVersion: version, role: role, codec: codec, outcome: .pass,
                               test: "", recordedAt: "")
    }

    /// The target's version, when the test learns it only after the cell started
    /// (Janus's `/janus/info` once Janus answers).
    public var version: String? {
        get { lock.withLock { result.targetVersion } }
        set { lock.withLock { result.targetVersion = newValue } }
    }

    /// What the call measured: time to connected, video loss in percent, received resolution.
    /// Each figure given replaces the one before; nil leaves it as it was.
    public func measured(setupMs: Double? = nil, lossPct: Double? = nil, resolution: String? = nil) {
        lock.withLock {
            result.setupMs = setupMs ?? result.setupMs
            result.lossPct = lossPct ?? result.lossPct
            result.resolution = resolution ?? result.resolution
        }
    }

    /// The figures of an `rtcswarm run`: the slowest peer's setup, the highest video loss,
    /// every received video resolution; and the target's version from the report.
    public func measured(_ report: RunReport) {
        measured(peers: report.cells.flatMap(\.peers))
        if version == nil { version = report.targetVersion }
    }

    /// The same figures from some of a run's peers (one group's, when a run holds the
    /// cases of several cells).
    public func measured(peers: [PeerRecord]) {
        let video = peers.flatMap(\.streams).filter { $0.kind == "video" }
        let resolutions = Set(video.flatMap(\.resolutions.keys)).sorted()
        measured(setupMs: peers.compactMap { $0.phases["setup_ms"] }.max(), lossPct: video.map(\.lossPct).max(),
                 resolution: resolutions.isEmpty ? nil : resolutions.joined(separator: ", "))
    }

    /// Video loss in percent from frame counts: `received` of `sent` arrived; nil with nothing sent.
    public static func lossPct(sent: Int, received: Int) -> Double? {
        sent > 0 ? Double(max(0, sent - received)) * 100 / Double(sent) : nil
    }

    /// Which cell of `test` this is (0 for its first).
    func index(in test: XCTestCase) -> Int { TestFailureLog.shared.nextCellIndex(for: test) }

    /// Writes the result with `test`'s outcome; a file that cannot be written is printed, not fatal.
    func finish(_ test: XCTestCase, fileName: String) {
        let log = TestFailureLog.shared
        var final = lock.withLock { result }
        final.test = test.name
        final.recordedAt = ISO8601DateFormatter().string(from: Date())
        let failures = test.testRun?.totalFailureCount ?? 0
        if failures > 0 {
            final.outcome = .fail
            final.reason = log.firstFailure(of: test) ?? "\(failures) failure(s)"
        } else if test.testRun?.hasBeenSkipped == true {
            final.outcome = .skipped
            final.reason = TestSkipReason.of(test) ?? "skipped (XCTest kept no reason)"
        }
        do {
            try InteropResultsFolder.write(final, named: fileName, to: InteropRecorder.directory)
        } catch {
            print("interop matrix: could not record \(fileName): \(error)")
        }
    }
}
