import Foundation
import Scenario
import WebRTCTestKit
import XCTest

/// Every file in Scenarios/ loads as shipped, with no environment set, and takes its
/// target URLs from the environment (so one file runs on a laptop, in compose and in CI).
final class ShippedScenarioTests: XCTestCase {
    func testEveryShippedScenarioLoadsWithItsDefaults() throws {
        let folder = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json5") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 4)
        for file in files {
            let path = folder.appendingPathComponent(file).path
            do {
                let loaded = try ScenarioLoader.load(file: path, environment: [:])
                XCTAssertEqual(loaded.scenario.name + ".json5", file, "the name matches the file, so report folders do too")
                if let url = loaded.scenario.target.url {
                    let text = try String(contentsOfFile: path, encoding: .utf8)
                    XCTAssertTrue(text.contains("${") && !text.contains("\"\(url)\""), "\(file): the target URL \(url) must come from an environment variable")
                }
            } catch {
                XCTFail("\(file): \(error)")
            }
        }
    }

    /// The `--set` overrides a shipped file's comments tell the reader to use (rooms-stress:
    /// `--set target.kind=room --set target.url=$ROOM_URL`) load as written, with the
    /// shell variable standing for a URL of the right scheme.
    func testTheOverridesEachFileDocumentsWorkAsWritten() throws {
        let folder = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios")
        var checked = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ $0.hasSuffix(".json5") }).sorted() {
            let path = folder.appendingPathComponent(file).path
            let comments = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("//") && $0.contains("--set ") }
            for line in comments {
                let words = line.split(separator: " ").map(String.init)
                let overrides = zip(words, words.dropFirst()).filter { $0.0 == "--set" }.map { pair in
                    pair.1.replacingOccurrences(of: "$ROOM_URL", with: "http://127.0.0.1:3000")
                }
                XCTAssertFalse(overrides.contains { $0.contains("$") }, "\(file): an override names a variable this test does not know: \(line)")
                XCTAssertNoThrow(try ScenarioLoader.load(file: path, environment: [:], overrides: overrides), "\(file): \(line)")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 1, "rooms-stress documents its override for an external server")
    }
}
