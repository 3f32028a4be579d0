import Foundation
import Scenario
import WebRTCTestKit
import XCTest

/// docs/scenarios.md and the model agree: every key the model reads is documented, every
/// documented key is read by the model, and every example in it loads.
final class DocumentationTests: XCTestCase {
    private func documentation() throws -> String {
        try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("docs/scenarios.md"), encoding: .utf8)
    }

    /// The fenced json5 blocks of the page.
    private func examples(_ text: String) -> [String] {
        text.components(separatedBy: "```json5\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    /// Keys documented in the first column of the tables headed `| key |` or `| profile key |`.
    private func documentedKeys(_ text: String) -> Set<String> {
        var keys = Set<String>()
        var inKeyTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix("|") {
                inKeyTable = false
            } else if line.hasPrefix("| key |") || line.hasPrefix("| profile key |") {
                inKeyTable = true
            } else if inKeyTable, line.hasPrefix("| `"), let key = line.dropFirst(3).split(separator: "`").first {
                keys.insert(String(key))
            }
        }
        return keys
    }

    /// Keys inside impairments (profiles, schedules) are documented by their own name.
    private func documentedForm(_ path: String) -> String {
        for prefix in ["groups[].impairment.send", "groups[].impairment.receive", "matrix.impairment[]", "timeline[].profile"] where path.hasPrefix(prefix + ".") || path.hasPrefix(prefix + "[]") {
            return String(path.split(separator: ".").last ?? "")
        }
        return path
    }

    func testEveryModelKeyIsDocumentedAndEveryDocumentedKeyIsRead() throws {
        let text = try documentation()
        let blocks = examples(text)
        XCTAssertGreaterThanOrEqual(blocks.count, 4)
        var read = Set<String>()
        for (index, block) in blocks.enumerated() {
            do {
                read.formUnion(try ScenarioLoader.load(text: block, environment: [:]).knownKeyPaths.map(documentedForm))
            } catch {
                XCTFail("example \(index + 1) in docs/scenarios.md does not load: \(error)")
            }
        }
        let documented = documentedKeys(text)
        XCTAssertEqual(read.subtracting(documented).sorted(), [], "keys the model reads but docs/scenarios.md does not list")
        // The examples must use every documented key, so that the check above covers them all.
        XCTAssertEqual(documented.subtracting(read).sorted(), [], "keys docs/scenarios.md lists that no example uses (or the model no longer reads)")
    }
}
