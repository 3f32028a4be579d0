import Foundation
import Report
import XCTest

final class InteropMatrixTests: XCTestCase {
    private func result(_ outcome: InteropResult.Outcome = .pass, target: String = "aiortc", version: String? = "aiortc 1.16.0",
                        role: String = "answerer (rtcswarm offers)", codec: String = "VP8+Opus", setup: Double? = nil, loss: Double? = nil,
                        resolution: String? = nil, reason: String? = nil, test: String = "t1",
                        at: String = "2026-11-29T10:00:00Z") -> InteropResult {
        InteropResult(target: target, targetVersion: version, role: role, codec: codec, outcome: outcome, setupMs: setup, lossPct: loss,
                      resolution: resolution, reason: reason, test: test, recordedAt: at)
    }

    private let context = InteropMatrixMarkdown.Context(rtcswarmVersion: "9.9.9", machine: "Linux x86_64, 2 cores")

    private func table(_ results: [InteropResult]) -> [String] {
        InteropMatrixMarkdown.render(InteropMatrix(results), context: context).split(separator: "\n").map(String.init).filter { $0.hasPrefix("|") }
    }

    func testPassFailSkippedAndUntestedCellsEachSayWhatHappened() {
        let rows = table([
            result(setup: 57.4, loss: 0, resolution: "320x180"),
            result(.fail, codec: "H.264+Opus", reason: "aiortc decoded 12 of 30 frames"),
            result(.skipped, role: "offerer (rtcswarm answers)", codec: "H.264+Opus", reason: ".venv/bin/python is not installed"),
        ])
        XCTAssertEqual(rows, [
            "| target — role | VP8+Opus | H.264+Opus |",
            "|---|---|---|",
            "| aiortc 1.16.0 — answerer (rtcswarm offers) | pass · setup 57.4 ms · loss 0 % · 320x180 | **FAIL**: aiortc decoded 12 of 30 frames |",
            "| aiortc 1.16.0 — offerer (rtcswarm answers) | — | skipped: .venv/bin/python is not installed |",
        ])
    }

    func testMergingACellKeepsTheWorstOutcomeAndSaysHowManyTestsHadIt() {
        let passAndFail = InteropMatrix([result(setup: 10, test: "a"), result(.fail, reason: "timed out", test: "b"), result(setup: 30, test: "c")])
        let cell = passAndFail.cell(InteropMatrix.Row(target: "aiortc", role: "answerer (rtcswarm offers)"), "VP8+Opus")
        XCTAssertEqual(cell?.outcome, .fail)
        XCTAssertEqual(table([result(setup: 10, test: "a"), result(.fail, reason: "timed out", test: "b")])[2],
                       "| aiortc 1.16.0 — answerer (rtcswarm offers) | **FAIL**: timed out (1 of 2 tests) |")
        XCTAssertEqual(table([result(setup: 10, test: "a"), result(.skipped, reason: "SRS_URL is not set", test: "b")])[2],
                       "| aiortc 1.16.0 — answerer (rtcswarm offers) | skipped: SRS_URL is not set (1 of 2 tests) |",
                       "a skip hides nothing: the cell is not proven")
        XCTAssertEqual(table([result(setup: 10, loss: 2, resolution: "640x480", test: "a"),
                              result(setup: 30, loss: 1, resolution: "320x180", test: "b")])[2],
                       "| aiortc 1.16.0 — answerer (rtcswarm offers) | pass · setup 30 ms · loss 2 % · 320x180, 640x480 (2 tests) |",
                       "the longest setup and the highest loss")
    }

    func testColumnsPutKnownCodecsFirstOthersByNameAndSignalingLast() {
        let matrix = InteropMatrix([result(codec: "signaling"), result(codec: "Zeta+Opus"), result(codec: "H.264+Opus"),
                                    result(codec: "Alpha+Opus"), result(codec: "VP8+Opus")])
        XCTAssertEqual(matrix.codecs, ["VP8+Opus", "H.264+Opus", "Alpha+Opus", "Zeta+Opus", "signaling"])
    }

    func testRowsAreByTargetThenRoleAndEachTargetNamesItsNewestVersionOnce() {
        let matrix = InteropMatrix([
            result(target: "Janus", version: "Janus 1.1.1", role: "EchoTest", at: "2026-11-29T09:00:00Z"),
            result(target: "Janus", version: "Janus 1.1.2", role: "EchoTest", at: "2026-11-29T11:00:00Z"),
            result(.skipped, target: "Janus", version: nil, role: "VideoRoom", reason: "janus is not installed", at: "2026-11-29T12:00:00Z"),
            result(target: "coturn", version: "4.6.1", role: "relay"),
            result(.skipped, target: "SRS", version: nil, role: "WHIP publisher", codec: "H.264+Opus", reason: "SRS_URL is not set"),
        ])
        XCTAssertEqual(matrix.rows.map(matrix.label), [
            "coturn 4.6.1 — relay", "Janus 1.1.2 — EchoTest", "Janus 1.1.2 — VideoRoom", "SRS — WHIP publisher",
        ])
        let page = InteropMatrixMarkdown.render(matrix, context: context)
        XCTAssertTrue(page.contains("\n- coturn 4.6.1\n- Janus 1.1.2\n- SRS: version unknown (no test reached it)\n"), page)
        XCTAssertTrue(page.contains("finished at 2026-11-29T12:00:00Z by rtcswarm 9.9.9 on Linux x86_64, 2 cores."), page)
        XCTAssertTrue(page.contains("4 cells: 2 pass, 0 fail, 2 skipped."), page)
    }

    func testReasonsCannotBreakTheTableAndLongOnesAreCut() {
        let long = String(repeating: "x", count: 300)
        let rows = table([result(.fail, reason: "a | b\nsecond line"), result(.fail, role: "r2", reason: long)])
        XCTAssertEqual(rows[2], "| aiortc 1.16.0 — answerer (rtcswarm offers) | **FAIL**: a \\| b second line |")
        XCTAssertEqual(rows[3], "| aiortc 1.16.0 — r2 | **FAIL**: " + String(repeating: "x", count: 139) + "… |")
    }

    func testAFolderWithACorruptFileYieldsTheGoodResultsAndNamesTheBadOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try InteropResultsFolder.write(result(setup: 5), named: "good", to: folder)
        try Data("{\"target\": ".utf8).write(to: folder.appendingPathComponent("truncated.json"))
        try Data("{\"target\": \"x\"}".utf8).write(to: folder.appendingPathComponent("partial.json"))
        try Data("ignored".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let contents = try InteropResultsFolder.read(folder)
        XCTAssertEqual(contents.results, [result(setup: 5)])
        XCTAssertEqual(contents.unreadable, ["partial.json: missing \"role\"", "truncated.json: not JSON"])
        let page = InteropMatrixMarkdown.render(InteropMatrix(contents.results), context: context, unreadable: contents.unreadable)
        XCTAssertTrue(page.contains("Unreadable result files (left out above):\n\n- partial.json: missing \"role\"\n"), page)
        XCTAssertThrowsError(try InteropResultsFolder.read(folder.appendingPathComponent("missing"))) { error in
            XCTAssertTrue("\(error)".hasSuffix("/missing is not a folder of interop results"), "\(error)")
        }
    }
}
