import Foundation
import Report
import WebRTCTestKit
import XCTest

/// Three tests that end three ways and record their cells, for `InteropRecorderTests`,
/// which runs them in a child process (XCTest has one current test per process). Without
/// `RTCSWARM_RECORDER_PROBE` they do nothing.
final class InteropRecorderProbe: XCTestCase {
    private var probing: Bool { ProcessInfo.processInfo.environment["RTCSWARM_RECORDER_PROBE"] == "1" }

    func testPasses() {
        guard probing else { return }
        InteropRecorder.cell(self, target: "aiortc", version: "aiortc 1.16.0", role: "answerer", codec: "VP8+Opus")
            .measured(setupMs: 57, lossPct: 0, resolution: "320x180")
    }

    func testFails() {
        guard probing else { return }
        InteropRecorder.cell(self, target: "aiortc", role: "answerer", codec: "H.264+Opus").measured(setupMs: 1)
        InteropRecorder.cell(self, target: "aiortc", role: "offerer", codec: "H.264+Opus")
        XCTAssertEqual(1, 2, "frames decoded")
        XCTFail("a second failure")
    }

    func testSkips() throws {
        guard probing else { return }
        InteropRecorder.cell(self, target: "SRS", role: "publisher", codec: "H.264+Opus")
        throw XCTSkip("SRS_URL is not set")
    }
}

final class InteropRecorderTests: XCTestCase {
    func testEachProbeRecordsItsOutcomeWithTheFirstFailureOrTheSkipReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["WebRTCTestKitTests.InteropRecorderProbe"]
        var environment = ProcessInfo.processInfo.environment
        environment["RTCSWARM_RECORDER_PROBE"] = "1"
        environment["RTCSWARM_INTEROP_RESULTS"] = folder.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, "the probe run has a failing test")

        let contents = try InteropResultsFolder.read(folder)
        XCTAssertEqual(contents.unreadable, [])
        XCTAssertEqual(contents.results.map(\.test), ["InteropRecorderProbe.testFails", "InteropRecorderProbe.testFails",
                                                      "InteropRecorderProbe.testPasses", "InteropRecorderProbe.testSkips"], "one file per cell")
        let byTest = Dictionary(contents.results.map { ($0.test, $0) }, uniquingKeysWith: { first, _ in first })

        let passed = try XCTUnwrap(byTest["InteropRecorderProbe.testPasses"])
        XCTAssertEqual(passed.outcome, .pass)
        XCTAssertEqual(passed.targetVersion, "aiortc 1.16.0")
        XCTAssertEqual([passed.setupMs, passed.lossPct], [57, 0])
        XCTAssertEqual(passed.resolution, "320x180")
        XCTAssertNil(passed.reason)

        let failed = contents.results.filter { $0.test == "InteropRecorderProbe.testFails" }
        XCTAssertEqual(failed.map(\.role), ["answerer", "offerer"], "its first cell, then its second")
        for cell in failed {
            XCTAssertEqual(cell.outcome, .fail)
            XCTAssertEqual(cell.reason, "XCTAssertEqual failed: (\"1\") is not equal to (\"2\") - frames decoded (InteropRecorderTests.swift:22)",
                           "the first failure, where it happened, for each cell of the test")
        }

        let skipped = try XCTUnwrap(byTest["InteropRecorderProbe.testSkips"])
        XCTAssertEqual(skipped.outcome, .skipped)
        XCTAssertEqual(skipped.reason, "SRS_URL is not set")
    }

    func testLossFromFrameCounts() {
        XCTAssertEqual(InteropCell.lossPct(sent: 30, received: 27), 10)
        XCTAssertEqual(InteropCell.lossPct(sent: 30, received: 31), 0, "more than sent is no loss")
        XCTAssertNil(InteropCell.lossPct(sent: 0, received: 0))
    }
}

final class TargetVersionTests: XCTestCase {
    /// The venv's dist-info folders name the pinned versions (Tests/Interop/requirements.txt).
    func testPipVersionsComeFromTheVenvsMetadata() throws {
        let pinned = try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("Tests/Interop/requirements.txt"), encoding: .utf8)
        guard TargetVersion.pip("aiortc") != nil else { throw XCTSkip("no .venv with aiortc (scripts/run-tests.sh creates it)") }
        for package in ["aiortc", "python-socketio"] {
            let version = try XCTUnwrap(TargetVersion.pip(package), package)
            XCTAssertTrue(pinned.contains(version.replacingOccurrences(of: " ", with: "==")), version)
        }
        XCTAssertNil(TargetVersion.pip("no-such-package"))
    }
}
