import EventLoop
import Foundation
import Glibc
import Metrics
import Report
import RoomServer
import RTCBase
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

final class ScenarioRunnerTests: XCTestCase {
    private func folder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func run(_ text: String, overrides: [String] = [], workers: Int = 1) throws -> (RunReport, ScenarioRunner.Outcome, URL) {
        let out = folder()
        let executable = ExternalTool.repositoryRoot.appendingPathComponent(".build/debug/rtcswarm")
        let runner = ScenarioRunner(loaded: try ScenarioLoader.load(text: text, overrides: overrides),
                                    options: .init(folder: out, version: "test", workers: workers, workerExecutable: executable,
                                                   progress: { _ in }))
        let (report, outcome) = runner.run()
        return (report, outcome, out)
    }

    static let members = """
    { name: "members", duration_s: 3, target: { kind: "builtin-room" },
      groups: [{ role: "member", count: 20, arrival: { rate_per_s: 100 } }],
      thresholds: ["failed_peers == 0", "join_ms.p95 < 1000", "connected_peers == 20"] }
    """

    func testMembersOnTheBuiltInServerAreAllMeasured() throws {
        let (report, outcome, out) = try run(Self.members)
        XCTAssertEqual(outcome, .passed)
        let cell = try XCTUnwrap(report.cells.first)
        XCTAssertEqual(cell.peers.count, 20)
        XCTAssertEqual(cell.peers.filter { $0.outcome == .completed }.count, 20)
        XCTAssertEqual(cell.metrics.histograms[.joinMs]?.count, 20, "one join time per member")
        XCTAssertEqual(cell.metrics.value(at: MetricAddress(.connectedPeers)), 20)
        XCTAssertEqual(cell.metrics.value(at: MetricAddress(.failedPeers)), 0)
        // Each member sends one message a second after joining, relayed to its one partner:
        // 20 members x 2 seconds of messages, give or take the last second.
        let relayed = try XCTUnwrap(cell.metrics.histograms[.relayMs]?.count)
        XCTAssertGreaterThanOrEqual(relayed, 20)
        XCTAssertLessThanOrEqual(relayed, 60)
        XCTAssertEqual(cell.thresholds.map(\.passed), [true, true, true])
        XCTAssertGreaterThanOrEqual(cell.timeSeries.count, 2, "a sample a second")
        XCTAssertEqual(cell.serverSamples.last?.values["members"], 20)
        // peers.ndjson was written as the peers ended: one line per peer.
        XCTAssertEqual(try PeerLog.read(out.appendingPathComponent("peers.ndjson")).count, 20)
    }

    func testTwoWorkerProcessesGiveTheSamePeersAndFiguresAsOne() throws {
        let executable = ExternalTool.repositoryRoot.appendingPathComponent(".build/debug/rtcswarm")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            return XCTFail("\(executable.path) is missing: 'swift build' builds it before the tests")
        }
        let (one, oneOutcome, _) = try run(Self.members, workers: 1)
        let (two, twoOutcome, out) = try run(Self.members, workers: 2)
        XCTAssertEqual(oneOutcome, .passed)
        XCTAssertEqual(twoOutcome, .passed)
        XCTAssertEqual(two.workers.map(\.index), [0, 1])
        XCTAssertEqual(two.workers.map(\.peers), [10, 10], "the plan is split evenly")
        for report in [one, two] {
            let cell = try XCTUnwrap(report.cells.first)
            XCTAssertEqual(cell.peers.count, 20)
            XCTAssertEqual(cell.metrics.value(at: MetricAddress(.connectedPeers)), 20)
            XCTAssertEqual(cell.metrics.histograms[.joinMs]?.count, 20)
            XCTAssertEqual(Set(cell.peers.map(\.id)).count, 20, "peer ids are unique across workers")
        }
        XCTAssertEqual(try PeerLog.read(out.appendingPathComponent("peers.ndjson")).count, 20,
                       "records from both children reach one peers.ndjson")
    }

    func testAnUnmeetableThresholdFailsWithTheMeasuredValue() throws {
        let (report, outcome, _) = try run(Self.members, overrides: ["thresholds=['join_ms.p95 < 0', 'failed_peers == 0']"])
        XCTAssertEqual(outcome, .thresholdsFailed)
        let failed = try XCTUnwrap(report.cells.first?.thresholds.first)
        XCTAssertFalse(failed.passed)
        XCTAssertGreaterThan(failed.measured ?? 0, 0)
        XCTAssertTrue(JUnitReport.render(report).contains("join_ms.p95 &lt; 0 failed: measured"))
    }

    func testAnUnreachableRoomServerCannotRun() throws {
        // A port nothing listens on.
        let loop = try EventLoop()
        let taken = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        let port = taken.localAddress.port
        taken.close()
        let (_, outcome, _) = try run(Self.members, overrides: ["target={kind: 'room', url: 'http://127.0.0.1:\(port)'}"])
        guard case .couldNotRun(let reason) = outcome else { return XCTFail("expected could-not-run, got \(outcome)") }
        XCTAssertTrue(reason.contains("cannot reach 127.0.0.1:\(port)"), reason)
        XCTAssertTrue(reason.contains("Connection refused"), reason)
    }

    func testTheServerDyingMidRunEndsPeersWithAReasonAndNothingHangs() throws {
        // A room server on its own thread that we stop after one second.
        let serverLoop = try EventLoop()
        let host = try RoomServerHost(loop: serverLoop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0),
                                      configuration: RoomServerConfiguration())
        let url = "http://\(host.address)"
        let stopped = DispatchSemaphore(value: 0)
        let owned = HostOnItsThread(host)
        let thread = Thread {
            serverLoop.run(until: { false }, timeout: .seconds(1))
            owned.host.shutdown()
            serverLoop.run(until: { false }, timeout: .milliseconds(100))
            stopped.signal()
        }
        thread.start()
        let started = MonotonicClock.now()
        let (report, outcome, _) = try run(Self.members, overrides: ["target={kind: 'room', url: '\(url)'}", "duration_s=4"])
        stopped.wait()
        XCTAssertLessThan(MonotonicClock.now() - started, .seconds(10), "the run finishes on time")
        XCTAssertEqual(outcome, .thresholdsFailed)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(peers.count, 20)
        let failed = peers.filter { $0.outcome == .failed }
        XCTAssertEqual(failed.count, 20, "every member lost its server")
        let reason = try XCTUnwrap(failed.first?.failureReason)
        XCTAssertTrue(reason.hasPrefix("WebSocket closed by the server with 1001 server shutting down at "), reason)
        // The server stopped about 1 s after it started, just before the run's clock began.
        let at = try XCTUnwrap(Double(reason.split(separator: " ").dropLast().last ?? ""))
        XCTAssertEqual(at, 1.0, accuracy: 0.5)
    }

    func testSIGTERMMidRunStillReportsEveryPeerAsInterrupted() throws {
        let timer = DispatchSource.makeTimerSource()
        timer.schedule(deadline: .now() + 1.2)
        timer.setEventHandler { kill(getpid(), SIGTERM) }
        timer.resume()
        let started = MonotonicClock.now()
        let (report, outcome, _) = try run(Self.members, overrides: ["duration_s=30"])
        timer.cancel()
        XCTAssertEqual(outcome, .interrupted)
        XCTAssertLessThan(MonotonicClock.now() - started, .seconds(5), "stopped within seconds of the signal")
        XCTAssertTrue(report.interrupted)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(peers.count, 20, "every peer that ran is in the report")
        XCTAssertEqual(peers.filter { $0.outcome == .interrupted }.count, 20)
        XCTAssertTrue(MarkdownSummary.render(report).contains("INTERRUPTED"))
    }
}

/// Hands a host to the one thread that runs its loop from then on.
private final class HostOnItsThread: @unchecked Sendable {
    let host: RoomServerHost
    init(_ host: RoomServerHost) { self.host = host }
}
