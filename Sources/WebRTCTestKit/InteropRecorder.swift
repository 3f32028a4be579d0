import Foundation
import Report
import XCTest

/// Records interop matrix cells (`INTEROP.md`) from the interop tests: one JSON result file
/// per cell and test, written when the test ends, into `RTCSWARM_INTEROP_RESULTS` (default
/// `<package root>/.build/interop/results`). The outcome comes from the test itself:
/// pass, fail with its first failure's message, or skipped with the `XCTSkip`'s reason.
///
/// Call it first thing in the test (or in `setUpWithError` before anything can skip), so
/// skips and failures are recorded too; add figures with `measured` once they exist:
///
///     let cell = InteropRecorder.cell(self, target: "aiortc", version: TargetVersion.pip("aiortc"),
///                                     role: "answerer (rtcswarm offers)", codec: "VP8+Opus")
///     ...
///     cell.measured(setupMs: 57, lossPct: 0, resolution: "320x180")
///
/// A browser row reads the same: `InteropRecorder.cell(self, target: "Chromium", version:
/// TargetVersion.chromium, role: "browser page via rtcswarm serve", codec: "VP8+Opus")`.
public enum InteropRecorder {
    /// Where result files go: `RTCSWARM_INTEROP_RESULTS`, or `.build/interop/results`.
    public static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["RTCSWARM_INTEROP_RESULTS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return ExternalTool.repositoryRoot.appendingPathComponent(".build/interop/results")
    }

    /// Starts recording `test`'s verdict on the cell `target` × `role` × `codec`; the result
    /// is written in a teardown block, after the test's outcome is known.
    @discardableResult
    public static func cell(_ test: XCTestCase, target: String, version: String? = nil, role: String, codec: String) -> InteropCell {
        TestFailureLog.shared.start()
        let cell = InteropCell(target: target, version: version, role: role, codec: codec)
        let name = Self.fileName(test: test.name, index: cell.index(in: test))
        test.addTeardownBlock { cell.finish(test, fileName: name) }
        return cell
    }

    /// "AiortcInteropTests.testX-0": the test's name made safe for a file name, and which of
    /// its cells this is, so a test run again replaces its own files.
    static func fileName(test: String, index: Int) -> String {
        let safe = String(test.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" ? $0 : "_" }.prefix(200))
        return "\(safe)-\(index)"
    }
}
