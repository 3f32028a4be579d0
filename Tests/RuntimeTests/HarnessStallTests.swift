import Foundation
import EventLoop
import Glibc
import Metrics
import Report
import RTCBase
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// Issue 19 item 3: a worker process stopped with SIGSTOP for 300 ms mid-run, as a stalled
/// machine stops it. One-way pairs put every sender (caller) in worker 0 and every
/// receiver (callee) in worker 1, so each stall is on one side only.
final class HarnessStallTests: XCTestCase {
    static let oneWay = """
    { name: "stall", duration_s: 5, target: { kind: "builtin-room" },
      groups: [{ role: "pair", one_way: true, count: 4, arrival: { rate_per_s: 20 },
                 media: { video: { codec: "vp8", resolution: "160x90", fps: 15, bitrate_kbps: 150 } } }] }
    """

    /// This test process's child running `rtcswarm worker ... --worker <index>`.
    private func workerPid(_ index: Int) -> pid_t? {
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm) ": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == me,
                  let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { continue }
            let command = " " + raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ") + " "
            if command.contains(" worker "), command.contains(" --worker \(index) ") { return pid }
        }
        return nil
    }

    /// Runs the scenario on two workers and stops worker `stopped` for 300 ms once two
    /// seconds have gone (the progress line at t = 2 s), when every call is up.
    /// Returns the run with the receivers' video streams (one per callee, checked).
    private func runStopping(worker stopped: Int) throws
        -> (report: RunReport, outcome: ScenarioRunner.Outcome, received: [StreamRecord]) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("stall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let executable = ExternalTool.repositoryRoot.appendingPathComponent(".build/debug/rtcswarm")
        var lines = 0
        var stoppedPid: pid_t?
        let runner = ScenarioRunner(loaded: try ScenarioLoader.load(text: Self.oneWay), options: .init(
            folder: out, version: "test", workers: 2, workerExecutable: executable, progress: { [self] _ in
                lines += 1
                guard lines == 2, let pid = workerPid(stopped) else { return }
                stoppedPid = pid
                kill(pid, SIGSTOP)
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { _ = kill(pid, SIGCONT) }
            }))
        let (report, outcome) = runner.run()
        XCTAssertNotNil(stoppedPid, "worker \(stopped) found among this process's children")
        let peers = try XCTUnwrap(report.cells.first?.peers)
        let received = peers.filter { $0.role == "callee" }.compactMap { $0.streams.first { $0.kind == "video" } }
        XCTAssertEqual(received.count, 4, "\(peers.compactMap(\.failureReason))")
        print("worker \(stopped) stopped: freezes \(received.map(\.freezeCount)), "
              + "harness freezes \(received.map { $0.harnessFreezeCount ?? -1 }), "
              + "lag p99/max \(report.workers.sorted { $0.index < $1.index }.map { "\($0.lagP99Ms)/\($0.lagMaxMs) ms" }); "
              + "\(report.invalidReason ?? "valid")")
        return (report, outcome, received)
    }

    /// The issue's case: the receiving worker's own loop stalled. The media kept arriving in
    /// its sockets, and each datagram is timed by the kernel's arrival stamp, so a receiver
    /// read after the stall sees no gap; one whose peer was given the time after the stall
    /// first (a timer due as the stall began) sees its datagrams no earlier than that, a
    /// gap its loop's stall explains: the harness's freeze, which makes the run invalid.
    /// None is in `freeze_count`.
    func testAStoppedReceivingWorkerBlamesNoFreezeOnTheNetworkAndMakesTheRunInvalid() throws {
        let (report, outcome, received) = try runStopping(worker: 1)
        for stream in received {
            XCTAssertEqual(stream.freezeCount, 0, "not a network freeze")
            XCTAssertLessThanOrEqual(stream.harnessFreezeCount ?? 0, 1, "at most the one gap of the stall, the harness's")
        }
        let metrics = try XCTUnwrap(report.cells.first?.metrics)
        XCTAssertEqual(metrics.value(at: MetricAddress(.freezeCount, .max)), 0)
        let workers = report.workers.sorted { $0.index < $1.index }
        XCTAssertEqual(workers.count, 2)
        // How late depends on when its first timer came due in the 300 ms: receivers only, its
        // timers are sparse, and 258 ms has been seen. Over the bound is what makes it a stall.
        XCTAssertGreaterThan(workers.last?.lagMaxMs ?? 0, LoopStalls.bound.milliseconds, "its loop noticed the stall")
        let harnessFreezes = received.reduce(0) { $0 + ($1.harnessFreezeCount ?? 0) }
        if harnessFreezes > 0 {
            XCTAssertEqual(outcome, .harnessSaturated)
            let reason = try XCTUnwrap(report.invalidReason)
            XCTAssertTrue(reason.hasPrefix("harness_freeze_count \(harnessFreezes) of \(harnessFreezes) freezes (100 %)"), reason)
        } else if let stalled = workers.last, stalled.lagP99Ms > LoopStalls.bound.milliseconds {
            // Every datagram kept its arrival, but the stall is over 1 % of the loop's wake-ups.
            let reason = try XCTUnwrap(report.invalidReason)
            XCTAssertTrue(reason.hasPrefix("event-loop lag p99 ") && reason.hasSuffix(" ms in worker 1 exceeds 50 ms"), reason)
        } else {
            XCTAssertNil(report.invalidReason, "every datagram kept its arrival: no figure moved")
        }
    }

    /// A stopped sender: the receivers' loop was on time, so the gap they see stays in their
    /// `freeze_count` (their worker cannot tell it from the network), and the run is
    /// invalid because the sending worker's lag max says it stalled long enough to cause it.
    func testAStoppedSendingWorkerLeavesTheFreezesButMakesTheRunInvalid() throws {
        let (report, outcome, received) = try runStopping(worker: 0)
        for stream in received {
            XCTAssertEqual(stream.harnessFreezeCount, 0, "the receivers' loop did not stall")
            XCTAssertEqual(stream.freezeCount, 1, "so they see one freeze")
        }
        XCTAssertEqual(outcome, .harnessSaturated)
        let reason = try XCTUnwrap(report.invalidReason)
        XCTAssertTrue(reason.contains("in worker 0 exceeds"), reason)
    }
}
