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
}
