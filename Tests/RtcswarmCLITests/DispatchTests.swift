import Foundation
import RtcswarmCLI
import Synchronization
import XCTest

/// Collects what a command prints.
final class CapturedConsole: Sendable {
    let outLines = Mutex<[String]>([])
    let errorLines = Mutex<[String]>([])

    var console: Console {
        Console(out: { line in self.outLines.withLock { $0.append(line) } },
                error: { line in self.errorLines.withLock { $0.append(line) } },
                isTerminal: false)
    }

    var out: String { outLines.withLock { $0.joined(separator: "\n") } }
    var error: String { errorLines.withLock { $0.joined(separator: "\n") } }
}

final class DispatchTests: XCTestCase {
    func testUnknownSubcommandExitsTwoWithReasonAndHint() {
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["frobnicate"], console: captured.console), .usage)
        XCTAssertTrue(captured.error.hasPrefix("error: unknown subcommand 'frobnicate'"))
        XCTAssertTrue(captured.error.contains("hint: subcommands: run, validate, plan, serve, report, selfcheck, doctor, worker"))
    }

    func testUnknownFlagOfASubcommandExitsTwo() {
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["selfcheck", "--bogus"], console: captured.console), .usage)
        XCTAssertTrue(captured.error.contains("unknown option --bogus for 'selfcheck'"))
        XCTAssertTrue(captured.error.contains("--pairs"))
        XCTAssertEqual(Rtcswarm.main(["--bogus"], console: captured.console), .usage)
    }

    func testVersionAndHelp() {
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["--version"], console: captured.console), .success)
        XCTAssertEqual(captured.out, "rtcswarm \(Rtcswarm.version)")
        let help = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["selfcheck", "--help"], console: help.console), .success)
        XCTAssertTrue(help.out.contains("--pairs <N>"))
        XCTAssertTrue(help.out.contains("(default: 50)"))
    }

    func testOutOfRangeValueIsAUsageError() {
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["selfcheck", "--rate", "0"], console: captured.console), .usage)
        XCTAssertTrue(captured.error.contains("--rate 0: expected a whole number from 1 to 10000"))
    }

    func testSelfcheckSendsTheExactScheduleAndWritesItsReport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("selfcheck-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let captured = CapturedConsole()
        let code = Rtcswarm.main(["selfcheck", "--pairs", "2", "--duration", "0.2", "--rate", "50", "--size", "100",
                                  "--out", folder.path], console: captured.console)
        XCTAssertEqual(code, .success, captured.error)
        XCTAssertEqual(captured.outLines.withLock { $0.last }, folder.path, "the last line is the report folder")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json"))) as? [String: Any]
        // 4 peers, each sending every 20 ms for 200 ms: exactly 10 datagrams each.
        XCTAssertEqual(report?["packetsSent"] as? Int, 40)
        XCTAssertEqual(report?["packetsReceived"] as? Int, 40)
        XCTAssertEqual(report?["lossPct"] as? Double, 0)
        XCTAssertEqual(report?["peers"] as? Int, 4)
        let latency = report?["latencyMs"] as? [String: Double]
        XCTAssertGreaterThan(latency?["max"] ?? 0, 0, "latency is measured, not zero")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("summary.md").path))
    }

    func testDoctorSaysWhenAScenarioTargetDoesNotAnswer() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).json5")
        defer { try? FileManager.default.removeItem(at: file) }
        // Port 1 on loopback: nothing listens there.
        try Data("{ name: 'd', duration_s: 5, target: { kind: 'room', url: 'http://127.0.0.1:1' }, groups: [{ role: 'member', count: 3 }] }".utf8)
            .write(to: file)
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["doctor", file.path], console: captured.console), .couldNotRun)
        XCTAssertTrue(captured.out.contains("FAIL target: http://127.0.0.1:1: cannot reach 127.0.0.1:1"), captured.out)
        XCTAssertTrue(captured.out.contains("3 peers need about 70"), captured.out)
    }

    func testDoctorReportsLimitsAndLibraryVersions() {
        let checks = DoctorCommand.checks(peers: 10)
        XCTAssertEqual(checks.map(\.name), ["open files", "socket buffers", "OpenSSL", "libsrtp2", "libopus", "libvpx", "OpenH264", "x265", "libde265", "libaom"])
        XCTAssertTrue(checks[2].detail.hasPrefix("OpenSSL 3"))
        XCTAssertFalse(DoctorCommand.checks(peers: 100_000_000).first?.ok ?? true, "a hundred million peers exceed any file limit")
    }
}

final class ValidateCommandTests: XCTestCase {
    private func write(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString).json5")
        try Data(text.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testValidScenarioPrintsItsPlanSummary() throws {
        let path = try write("{ name: 'q', duration_s: 30, target: { kind: 'builtin-room' }, groups: [{ role: 'pair', count: 20, arrival: { rate_per_s: 10 } }] }")
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["validate", path], console: captured.console), .success, captured.error)
        XCTAssertEqual(captured.out, "ok: \(path): \"q\", 1 group(s), 40 peers, last start at 1.9 s, 30.0 s, 0 threshold(s)")
    }

    /// Chromium's peers count among the scenario's, said apart.
    func testAScenarioWithAChromiumGroupCountsItsPeers() throws {
        let path = try write("""
            { name: 'c', duration_s: 10, target: { kind: 'srs', url: 'http://127.0.0.1:1985' },
              groups: [{ role: 'publisher', count: 1 }, { role: 'player', client: 'chromium', count: 3, start_s: 1, arrival: { rate_per_s: 2 } }] }
            """)
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["validate", path], console: captured.console), .success, captured.error)
        XCTAssertEqual(captured.out, "ok: \(path): \"c\", 2 group(s), 4 peers (3 run by Chromium), last start at 2.0 s, 10.0 s, 0 threshold(s)")
        let plan = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["plan", path, "--peers"], console: plan.console), .success, plan.error)
        XCTAssertTrue(plan.out.hasPrefix("\"c\": 1 peers in 1 shard(s) of 1 worker(s) and 3 in Chromium, 10.0 s"), plan.out)
        XCTAssertEqual(plan.out.split(separator: "\n").filter { $0.contains("chromium") && $0.contains("g1-") }.count, 3, plan.out)
    }

    func testBadFieldExitsTwoNamingIt() throws {
        let path = try write("{ name: 'q', duration_s: 30, target: { kind: 'builtin-room' }, groups: [{ role: 'pair', count: 2 }] }")
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["validate", path, "--set", "groups[0].media.video.codec=vp10"], console: captured.console), .usage)
        XCTAssertEqual(captured.error, "error: groups[0].media.video.codec: \"vp10\" is not one of vp8, vp9, h264, h265, av1 (did you mean \"vp8\"?)")
    }

    func testMissingFileSaysSo() {
        let captured = CapturedConsole()
        XCTAssertEqual(Rtcswarm.main(["validate", "/nonexistent/s.json5"], console: captured.console), .usage)
        XCTAssertTrue(captured.error.hasPrefix("error: cannot read /nonexistent/s.json5: "), captured.error)
    }
}
