import Foundation
import WebRTCTestKit
import XCTest

/// docker-compose.yml cannot be run here (no Docker engine), but Debian's docker-compose
/// can parse and validate it, which catches the mistakes a user would hit first.
final class ComposeFileTests: XCTestCase {
    func testComposeFileValidatesAndKeepsSRSOnLoopback() throws {
        let compose = try ExternalTool.require("docker-compose", installHint: "apt-get install docker-compose")
        let result = try ExternalTool.run(compose, ["-f", "docker-compose.yml", "config"], in: ExternalTool.repositoryRoot)
        XCTAssertEqual(result.status, 0, result.output)
        // The resolved configuration still names both services and SRS's loopback candidate.
        XCTAssertTrue(result.output.contains("srs:"), result.output)
        XCTAssertTrue(result.output.contains("rtcswarm:"), result.output)
        XCTAssertTrue(result.output.contains("CANDIDATE: 127.0.0.1"), result.output)
        XCTAssertTrue(result.output.contains("network_mode: host"), result.output)
        XCTAssertTrue(result.output.contains("Scenarios/srs-publish-play.json5"), "the rtcswarm service runs an SRS scenario")
    }

    /// The `shards` profile: one service per shard, each told its index and the same N
    /// (which is the number of shard services), and the merge service.
    func testShardsProfileRunsEveryShardAgainstTheComposeSRSAndMergesThem() throws {
        let compose = try ExternalTool.require("docker-compose", installHint: "apt-get install docker-compose")
        let result = try ExternalTool.run(compose, ["-f", "docker-compose.yml", "--profile", "shards", "config"], in: ExternalTool.repositoryRoot)
        XCTAssertEqual(result.status, 0, result.output)
        let services = result.output.components(separatedBy: "\n  shard-").dropFirst()
        XCTAssertEqual(services.count, 3, result.output)
        for (index, service) in services.enumerated() {
            // The service's own lines: up to the next line indented as a service name.
            let lines = service.components(separatedBy: "\n  ")
            let body = ([lines[0]] + lines.dropFirst().prefix { $0.hasPrefix(" ") }).joined(separator: "\n  ")
            XCTAssertTrue(body.hasPrefix("\(index):"), body)
            XCTAssertTrue(body.contains("JOB_COMPLETION_INDEX: '\(index)'"), body)
            XCTAssertTrue(body.contains("RTCSWARM_SHARDS: '\(services.count)'"), body)
            XCTAssertTrue(body.contains("/rtcswarm/Reports/shards/shard-\(index)"), body)
            XCTAssertTrue(body.contains("SRS_URL: http://127.0.0.1:1985") && body.contains("network_mode: host"), body)
        }
        let merge = try XCTUnwrap(result.output.components(separatedBy: "\n  merge:").dropFirst().first)
        XCTAssertTrue(merge.contains("- rtcswarm-merge-shards") && merge.contains("RTCSWARM_SHARDS: '3'"), merge)
    }

    func testComposeFileWithAnUnknownKeyIsRejected() throws {
        let compose = try ExternalTool.require("docker-compose", installHint: "apt-get install docker-compose")
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("compose-\(UUID().uuidString).yml")
        try Data("services:\n  srs:\n    image: ossrs/srs:6\n    netwrok_mode: host\n".utf8).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }
        let result = try ExternalTool.run(compose, ["-f", broken.path, "config"])
        XCTAssertNotEqual(result.status, 0, "a misspelt key must fail validation, or the first test proves nothing")
        XCTAssertTrue(result.output.contains("netwrok_mode"), result.output)
    }
}
