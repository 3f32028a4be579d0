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
