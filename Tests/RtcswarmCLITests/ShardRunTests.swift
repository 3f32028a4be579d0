import Foundation
import Metrics
import Report
import WebRTCTestKit
import XCTest

/// `run --shard I/N` as N processes of the built `rtcswarm` on this machine, each with its
/// own built-in room server, merged with `report merge`, against one process running the
/// whole scenario.
final class ShardRunTests: XCTestCase {
    static let binary = ExternalTool.repositoryRoot.appendingPathComponent(".build/debug/rtcswarm")
    /// `run`: six quickstart calls for 4 s at a small video size: enough calls to deal over 3 shards.
    static let scenario = ["run", "Scenarios/quickstart.json5", "--set", "duration_s=4", "--set", "groups[0].count=6",
                           "--set", "groups[0].media.video.resolution=160x90", "--set", "groups[0].media.video.bitrate_kbps=100",
                           "--workers", "1"]

    /// Starts every command line at once, waits for all; their exit statuses and what
    /// they wrote on standard error, in order.
    static func runTogether(_ commands: [[String]], environments: [[String: String]]? = nil, logs: URL) throws -> [(Int32, String)] {
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let processes = try commands.enumerated().map { index, arguments in
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.currentDirectoryURL = ExternalTool.repositoryRoot
            if let environment = environments?[index] {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            let log = logs.appendingPathComponent("\(index).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            return (process, log)
        }
        return processes.map { process, log in
            process.waitUntilExit()
            return (process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        }
    }

    /// RFC 3339, `seconds` from now: the shards' common start.
    static func startAt(in seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date().addingTimeInterval(seconds))
    }

    func testThreeShardsMergeIntoTheWholeRunsPeersAndCountersWithExactPercentiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shards-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let shardFolders = (0..<3).map { folder.appendingPathComponent("shard-\($0)").path }
        let whole = folder.appendingPathComponent("whole").path
        // The whole run first, then the shards together: four debug-built runs at once on
        // two cores are more than the harness's own lag bound allows in a loaded CI. Each
        // exits 0, or 5 when a busy machine saturated its harness (its report is whole, its
        // verdict invalid, and the merge must then fail naming it).
        let wholeRun = try Self.runTogether([Self.scenario + ["--out", whole]], logs: folder.appendingPathComponent("whole-log"))
        XCTAssertTrue([0, 5].contains(wholeRun[0].0), "the whole run: \(wholeRun[0].1)")
        let start = Self.startAt(in: 3)
        let results = try Self.runTogether((0..<3).map { Self.scenario + ["--shard", "\($0)/3", "--start-at", start, "--out", shardFolders[$0]] },
                                           logs: folder.appendingPathComponent("logs"))
        XCTAssertEqual(results.filter { $0.0 != 0 && $0.0 != 5 }.count, 0, "the three shards: \(results)")
        let saturated = results.indices.filter { results[$0].0 == 5 }
        let merged = folder.appendingPathComponent("merged").path
        let merge = try ExternalTool.run(Self.binary, ["report", "merge"] + shardFolders + ["--out", merged])
        XCTAssertEqual(merge.status, saturated.isEmpty ? 0 : 4, merge.output)

        let single = try ReportWriter.read(whole), report = try ReportWriter.read(merged)
        let shards = try shardFolders.map(ReportWriter.read)
        XCTAssertEqual(shards.map { $0.shard?.index }, [0, 1, 2])
        XCTAssertEqual(report.mergedShards?.count, 3)
        XCTAssertEqual(report.shardProblems?.count, saturated.isEmpty ? nil : saturated.count, "\(report.shardProblems ?? [])")
        XCTAssertEqual(report.passed, saturated.isEmpty, report.invalidReason ?? "")
        let (one, all) = (single.cells[0], report.cells[0])
        XCTAssertEqual(all.peers.count, 12)
        XCTAssertEqual(all.peers.map(\.id).sorted(), one.peers.map(\.id).sorted(), "the same peers, by the same names")
        XCTAssertEqual(shards.map { $0.cells[0].peers.count }, [4, 4, 4], "two calls each")
        // Counters: the merge adds the shards' exactly. Peers connected and failed, and NACKs
        // on a clean loopback, are the whole run's; PLIs and frames of unknown size depend
        // on which calls share an encoder (each shard encodes once for its own calls).
        for (name, counter) in all.metrics.counters {
            XCTAssertEqual(counter.value, shards.reduce(0) { $0 + ($1.cells[0].metrics.counters[name]?.value ?? 0) }, "\(name): sum of the shards")
        }
        for name in [MetricName.failedPeers, .nacks] {
            XCTAssertEqual(all.metrics.counters[name]?.value, one.metrics.counters[name]?.value, "\(name)")
        }
        XCTAssertEqual(all.metrics.gauges[.connectedPeers]?.value, 12)
        XCTAssertEqual(one.metrics.gauges[.connectedPeers]?.value, 12)
        XCTAssertEqual(Set(all.metrics.counters.keys), Set(one.metrics.counters.keys), "every counter of the whole run is there")
        // Every per-peer and per-stream distribution holds as many samples as the whole run's.
        for name in [MetricName.setupMs, .iceMs, .dtlsMs, .firstFrameMs, .fps, .videoLossPct, .audioLossPct] {
            XCTAssertEqual(all.metrics.histograms[name]?.count, one.metrics.histograms[name]?.count, "\(name) samples")
        }
        // Merged percentiles are those of the union of the shards' samples, never averages.
        var union = Histogram()
        for peer in shards.flatMap(\.cells[0].peers) { peer.phases["setup_ms"].map { union.record($0) } }
        XCTAssertEqual(union.count, 12)
        for percentile in [50.0, 95, 99] {
            XCTAssertEqual(all.metrics.histograms[.setupMs]?.percentile(percentile), union.percentile(percentile), "setup_ms p\(percentile)")
        }
        XCTAssertEqual(all.metrics.histograms[.setupMs]?.max, union.max)

        // Without shard 1 the merge still writes the report, and fails naming the shard.
        let partial = folder.appendingPathComponent("partial").path
        let missing = try ExternalTool.run(Self.binary, ["report", "merge", shardFolders[0], shardFolders[2], "--out", partial])
        XCTAssertEqual(missing.status, 4, missing.output)
        XCTAssertTrue(missing.output.contains("merge: shard 1/3 missing"), missing.output)
        let failed = try ReportWriter.read(partial)
        XCTAssertEqual(failed.shardProblems, ["shard 1/3 missing"])
        XCTAssertEqual(failed.cells[0].peers.count, 8)
        XCTAssertFalse(failed.passed)
    }

    /// Worker children are told the shard, so a shard's workers share its part of the plan only.
    func testAShardsWorkerProcessesRunOnlyItsPeers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shard-workers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The scenario without its "--workers 1"; the later count wins over the earlier.
        let arguments = Array(Self.scenario.dropLast(2)) + ["--set", "groups[0].count=4", "--workers", "2", "--shard", "1/2",
                                                            "--out", folder.path]
        let result = try ExternalTool.run(Self.binary, arguments, in: ExternalTool.repositoryRoot)
        XCTAssertTrue([0, 5].contains(result.status), result.output)
        let report = try ReportWriter.read(folder.path)
        XCTAssertEqual(report.cells[0].peers.map(\.id).sorted(), ["g0-1-callee", "g0-1-caller", "g0-3-callee", "g0-3-caller"])
        XCTAssertEqual(report.workers.map(\.peers), [2, 2], "one call per worker")
        XCTAssertEqual(report.shard?.name, "shard 1/2")
    }
}
