import Foundation
import Report
import RtcswarmCLI
import XCTest

final class InteropMatrixCommandTests: XCTestCase {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("interop-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testRendersTheMatrixIntoOutAndWarnsAboutACorruptFile() throws {
        let results = try folder()
        try InteropResultsFolder.write(InteropResult(target: "coturn", targetVersion: "coturn 4.6.1", role: "TURN server", codec: "signaling",
                                                     outcome: .pass, setupMs: 3, test: "T.t", recordedAt: "2026-11-29T10:00:00Z"),
                                       named: "a", to: results)
        try Data("[1, 2".utf8).write(to: results.appendingPathComponent("b.json"))
        let out = results.appendingPathComponent("report/INTEROP.md")
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["interop-matrix", results.path, "--out", out.path], console: captured.console), .success)
        XCTAssertEqual(captured.out, out.path)
        XCTAssertEqual(captured.error, "warning: skipped b.json: not JSON")
        let page = try String(contentsOf: out, encoding: .utf8)
        XCTAssertTrue(page.contains("by rtcswarm \(Rtcswarm.version) on Linux "), page)
        XCTAssertTrue(page.contains("\n| coturn 4.6.1 — TURN server | pass · setup 3 ms |\n"), page)
        XCTAssertTrue(page.contains("- b.json: not JSON"), page)
    }

    func testWithoutOutTheMarkdownGoesToStandardOutput() throws {
        let results = try folder()
        try InteropResultsFolder.write(InteropResult(target: "SRS", role: "publisher", codec: "H.264+Opus", outcome: .skipped,
                                                     reason: "SRS_URL is not set", test: "T.t", recordedAt: "2026-11-29T10:00:00Z"),
                                       named: "a", to: results)
        let captured = CapturedConsole()
        let before = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath)
        XCTAssertEqual(Rtcswarm.main(["interop-matrix", results.path], console: captured.console), .success)
        XCTAssertTrue(captured.out.hasPrefix("# Interop matrix\n"), captured.out)
        XCTAssertTrue(captured.out.contains("| SRS — publisher | skipped: SRS_URL is not set |"), captured.out)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath), before, "no file written")
    }

    func testAMissingOrEmptyFolderExitsTwoWithTheReason() throws {
        let missing = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["interop-matrix", "/nonexistent/results"], console: missing.console), .usage)
        XCTAssertTrue(missing.error.hasPrefix("error: /nonexistent/results is not a folder of interop results"), missing.error)
        let empty = CapturedConsole()
        let path = try folder().path
        XCTAssertEqual(Rtcswarm.main(["interop-matrix", path], console: empty.console), .usage)
        XCTAssertTrue(empty.error.hasPrefix("error: \(path) holds no interop results"), empty.error)
        XCTAssertEqual(empty.out, "")
        let bare = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["interop-matrix"], console: bare.console), .usage, "the folder is required")
    }

    func testHelpListsTheOutOptionAndWhatHappensWithoutIt() {
        let help = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["interop-matrix", "--help"], console: help.console), .success)
        XCTAssertTrue(help.out.contains("USAGE: rtcswarm interop-matrix [options] RESULTS-DIR"), help.out)
        XCTAssertTrue(help.out.contains("--out <FILE>"), help.out)
        XCTAssertTrue(help.out.contains("without it, print the Markdown."), help.out)
        let top = CapturedConsole()
        _ = Rtcswarm.main(["--help"], console: top.console)
        XCTAssertTrue(top.out.contains("  interop-matrix  Render the interop matrix"), top.out)
    }
}
