import Foundation
import Metrics
import WebRTCTestKit
import XCTest

/// docs/metrics.md and `MetricName` agree: each figure a threshold may name has one row
/// defining it (an alias one row naming its figure), and the page defines no figure the code lacks.
final class MetricsDocumentationTests: XCTestCase {
    func testEveryFigureHasOneDefinitionAndNoneIsExtra() throws {
        let text = try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("docs/metrics.md"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { $0.dropFirst(3).split(separator: "`").first.map(String.init) }
        XCTAssertEqual(rows.count, Set(rows).count, "a figure defined twice")
        XCTAssertEqual(Set(rows), Set(MetricName.allCases.map(\.rawValue)).union(MetricName.aliases.keys))
        // Each alias row names the figure it stands for, as the code resolves it.
        for (alias, name) in MetricName.aliases {
            XCTAssertTrue(text.contains("| `\(alias)` | `\(name.rawValue)` |"), "docs/metrics.md gives \(alias) as an alias of \(name.rawValue)")
        }
        let scenarios = try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("docs/scenarios.md"), encoding: .utf8)
        XCTAssertTrue(scenarios.contains("](metrics.md)"), "docs/scenarios.md links the definitions")
        XCTAssertFalse(scenarios.contains("METRICS.md"), "the repository has no METRICS.md to point at")
    }
}
