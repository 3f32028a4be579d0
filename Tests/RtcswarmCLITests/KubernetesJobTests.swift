import Foundation
import Report
import WebRTCTestKit
import XCTest

/// deploy/kubernetes without a cluster: the Indexed Job's pod command, read from its
/// manifest, run once per index with the environment Kubernetes gives each pod, then the
/// merge Job's command over the same reports folder (the PVC), as kubelet would run them.
final class KubernetesJobTests: XCTestCase {
    /// A container of a Job manifest: its command line and its plain environment (what
    /// `valueFrom` supplies is given by the test, as the cluster would).
    struct Container {
        var command: [String]
        var environment: [String: String]
        var completions: Int?

        init(manifest path: String) throws {
            let job = try XCTUnwrap(try DeployTools.yamlDocuments(path).first)
            let spec = try XCTUnwrap(job["spec"] as? [String: Any])
            completions = spec["completions"] as? Int
            let pod = try XCTUnwrap((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
            let container = try XCTUnwrap((pod["containers"] as? [[String: Any]])?.first)
            // The image's ENTRYPOINT is rtcswarm: a container without `command` runs it with `args`.
            command = (container["command"] as? [String] ?? ["rtcswarm"]) + (container["args"] as? [String] ?? [])
            environment = [:]
            for variable in container["env"] as? [[String: Any]] ?? [] {
                if let name = variable["name"] as? String, let value = variable["value"] as? String { environment[name] = value }
            }
        }

        /// Kubernetes's `$(VAR)` expansion of a container's command and args.
        func expanded(_ environment: [String: String]) -> [String] {
            command.map { argument in
                environment.reduce(argument) { $0.replacingOccurrences(of: "$(\($1.key))", with: $1.value) }
            }
        }
    }

    func testThePodCommandRunNTimesWithJobCompletionIndexThenTheMergeCommandMakeOnePassingReport() throws {
        let shards = try Container(manifest: "deploy/kubernetes/job-shards.yaml")
        let merge = try Container(manifest: "deploy/kubernetes/job-merge.yaml")
        let count = try XCTUnwrap(shards.completions)
        XCTAssertEqual(shards.command.first, "rtcswarm")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indexed-job-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = folder.appendingPathComponent("reports"), bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        // The image's rtcswarm and rtcswarm-merge-shards on PATH, as the Dockerfile installs them.
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("rtcswarm"), withDestinationURL: ShardRunTests.binary)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("rtcswarm-merge-shards"),
                                                   withDestinationURL: ExternalTool.repositoryRoot.appendingPathComponent("deploy/merge-shards.sh"))
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        // What the volumes mount (the ConfigMap's scenario, the PVC) and the downward API and
        // ConfigMap give; DURATION_S and CALLS shorten the shipped scenario and one worker
        // per pod keeps N pods on this machine's cores.
        let start = ShardRunTests.startAt(in: 3)
        let podEnvironments = (0..<count).map { index in
            shards.environment.merging([
                "JOB_COMPLETION_INDEX": String(index), "RTCSWARM_START_AT": start,
                "RTCSWARM_SCENARIO": ExternalTool.repositoryRoot.appendingPathComponent("deploy/kubernetes/scenario.json5").path,
                "RTCSWARM_REPORTS": reports.path, "DURATION_S": "3", "CALLS": "8", "RTCSWARM_WORKERS": "1", "PATH": path,
            ]) { $1 }
        }
        let results = try ShardRunTests.runTogether(podEnvironments.map { Array(shards.expanded($0).dropFirst()) },
                                                    environments: podEnvironments, logs: folder.appendingPathComponent("logs"))
        // 0, or 5 when a busy machine saturated a pod's harness (its report is whole, its verdict invalid).
        XCTAssertEqual(results.filter { $0.0 != 0 && $0.0 != 5 }.count, 0, "\(results)")
        let saturated = results.indices.filter { results[$0].0 == 5 }

        func runMerge() throws -> (status: Int32, output: String) {
            let process = Process()
            let expanded = merge.expanded([:])
            process.executableURL = bin.appendingPathComponent(expanded[0])
            process.arguments = Array(expanded.dropFirst())
            process.environment = ProcessInfo.processInfo.environment.merging(merge.environment) { $1 }
                .merging(["RTCSWARM_REPORTS": reports.path, "PATH": path, "RTCSWARM_MERGE_WAIT_S": "0"]) { $1 }
            let pipe = Pipe()
            (process.standardOutput, process.standardError) = (pipe, pipe)
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self))
        }
        let merged = try runMerge()
        XCTAssertEqual(merged.status, saturated.isEmpty ? 0 : 4, merged.output)
        let report = try ReportWriter.read(reports.appendingPathComponent("merged").path)
        XCTAssertEqual(report.mergedShards?.map(\.index), Array(0..<count))
        XCTAssertEqual(report.cells[0].peers.count, 16, "8 calls, two peers each")
        XCTAssertEqual(report.cells[0].peers.map(\.id).sorted(), (0..<8).flatMap { ["g0-\($0)-callee", "g0-\($0)-caller"] }.sorted())
        XCTAssertEqual(report.cells[0].metrics.counters[.failedPeers]?.value, 0)
        XCTAssertEqual(report.shardProblems?.count, saturated.isEmpty ? nil : saturated.count, "\(report.shardProblems ?? [])")
        XCTAssertEqual(report.passed, saturated.isEmpty)

        // A pod that wrote nothing: the merge Job still writes the merged report and fails naming it.
        try FileManager.default.removeItem(at: reports.appendingPathComponent("shard-1"))
        let partial = try runMerge()
        XCTAssertEqual(partial.status, 4, partial.output)
        XCTAssertTrue(partial.output.contains("merge: shard 1/\(count) missing"), partial.output)
        XCTAssertTrue(partial.output.contains("merge: \(reports.path)/shard-1: no report"), partial.output)
    }
}
