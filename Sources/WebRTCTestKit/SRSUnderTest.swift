import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The SRS a test talks to. SRS is not in Debian and the project never reads a path
/// outside the checkout, so SRS reaches the tests only through the environment:
/// - `SRS_URL`: an SRS the whole run shares (its HTTP API, e.g. `http://127.0.0.1:1985`;
///   the docker-compose one, or the one `.ci/run` starts);
/// - `RTCSWARM_SRS_START`: a start script (`start-srs.sh WORKDIR API_PORT RTC_PORT`, printing
///   `SRS_URL=` and `SRS_PID=`) with which a test starts an SRS of its own, to kill or
///   restart it without disturbing the others;
/// - `RTCSWARM_SRS_REQUIRED=1`: set by `.ci/run` when it provided both; then a test that
///   finds neither fails instead of skipping.
public enum SRSUnderTest {
    private static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The shared SRS's API URL, or a skip (a failure when `.ci/run` provided SRS) that
    /// says how to point the tests at one.
    public static func sharedURL(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        if let url = environment["SRS_URL"], !url.isEmpty { return url }
        try absent("SRS_URL is not set", hint: "an SRS HTTP API such as http://127.0.0.1:1985: `docker compose up srs`", file: file, line: line)
    }

    /// Starts an SRS of the test's own on free ports; the caller stops it.
    public static func startOwn(file: StaticString = #filePath, line: UInt = #line) throws -> OwnSRS {
        try OwnSRS(script: startScript(file: file, line: line))
    }

    /// The start script itself, for a test that starts SRS where this process cannot (in
    /// a network namespace of its own), or a skip as `startOwn` gives.
    public static func startScript(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard let script = environment["RTCSWARM_SRS_START"], !script.isEmpty else {
            try absent("RTCSWARM_SRS_START is not set",
                       hint: "a start-srs.sh that runs SRS on given ports, for tests that kill or restart their own SRS", file: file, line: line)
        }
        return URL(fileURLWithPath: script)
    }

    private static func absent(_ reason: String, hint: String, file: StaticString, line: UInt) throws -> Never {
        if ExternalTool.isCI, environment["RTCSWARM_SRS_REQUIRED"] == "1" {
            XCTFail("CI=true and \(reason), though .ci/run provided SRS: its absence is a failure", file: file, line: line)
        }
        print("skipped: \(reason) (\(hint))")
        throw XCTSkip(reason)
    }
}

/// An SRS started for one test from `RTCSWARM_SRS_START`, on its own API and RTC ports
/// and work folder, so killing or restarting it touches no other test's streams.
public final class OwnSRS: @unchecked Sendable {
    public let apiPort: UInt16
    public let rtcPort: UInt16
    public let workFolder: URL
    private let script: URL
    /// The running server's process id, nil once killed.
    public private(set) var pid: Int32?

    /// `http://127.0.0.1:<apiPort>`.
    public var url: String { "http://127.0.0.1:\(apiPort)" }

    init(script: URL) throws {
        self.script = script
        apiPort = try LoopbackPort.free(SOCK_STREAM)
        rtcPort = try LoopbackPort.free(SOCK_DGRAM)
        workFolder = FileManager.default.temporaryDirectory.appendingPathComponent("srs-\(UUID().uuidString.prefix(8))")
        try start()
    }

    deinit {
        // SRS answers SIGTERM with a graceful quit that can outlast the test.
        kill(signal: SIGKILL)
        try? FileManager.default.removeItem(at: workFolder)
    }

    /// Starts (or starts again, after `kill`) the server and waits until its API answers.
    public func start() throws {
        // The script leaves SRS running in the background. Foundation's Process knows a child
        // has exited when every holder of a socket it hands the child is gone, so SRS must not
        // inherit it: descriptors above 2 are closed before the script runs.
        let closeInheritedThenRun = #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; exec "$0" "$@""#
        let (status, output) = try ExternalTool.run(URL(fileURLWithPath: "/bin/bash"),
                                                    ["-c", closeInheritedThenRun, script.path, workFolder.path, String(apiPort), String(rtcPort)])
        guard status == 0, let pidLine = output.split(separator: "\n").first(where: { $0.hasPrefix("SRS_PID=") }),
              let started = Int32(pidLine.dropFirst("SRS_PID=".count)) else {
            throw ExternalToolError("\(script.path) could not start SRS (exit \(status)): \(output)")
        }
        pid = started
    }

    /// Sends `signal` (SIGKILL: the server dies at once, as in a crash) and waits for the
    /// process to be gone.
    public func kill(signal: Int32 = SIGKILL) {
        guard let pid else { return }
        self.pid = nil
        _ = Glibc.kill(pid, signal)
        let deadline = Date().addingTimeInterval(5)
        while Self.isAlive(pid), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// Whether `pid` still runs: the start script's child is not ours to reap, so a dead
    /// one may linger as a zombie (state `Z` in /proc) until init collects it.
    private static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[close...].dropFirst(2).hasPrefix("Z")
    }

    /// The server's log (`srs.log` in its work folder), for failure messages.
    public var log: String {
        (try? String(contentsOf: workFolder.appendingPathComponent("srs.log"), encoding: .utf8)) ?? ""
    }
}
