/// `junit.xml`: one test suite per matrix cell, one test case per threshold (failing with
/// the measured value), plus cases for the run itself (not interrupted, harness not
/// saturated), so a CI system shows exactly what failed.
public enum JUnitReport {
    public static func render(_ report: RunReport) -> String {
        var suites: [String] = []
        var totalTests = 0
        var totalFailures = 0
        let runCases = runCases(report)
        for cell in report.cells {
            var cases: [String] = []
            var failures = 0
            for outcome in cell.thresholds {
                let name = Format.escape(outcome.title)
                if outcome.passed {
                    cases.append("    <testcase classname=\"thresholds\" name=\"\(name)\"/>")
                } else {
                    failures += 1
                    let measured = outcome.measured.map { "measured \(Format.number($0))" } ?? "nothing was measured"
                    let message = Format.escape("\(outcome.expr) failed: \(measured)")
                    cases.append("    <testcase classname=\"thresholds\" name=\"\(name)\">\n      <failure message=\"\(message)\">\(message)</failure>\n    </testcase>")
                }
            }
            for (name, failure) in runCases {
                if let failure {
                    failures += 1
                    let message = Format.escape(failure)
                    cases.append("    <testcase classname=\"run\" name=\"\(name)\">\n      <failure message=\"\(message)\">\(message)</failure>\n    </testcase>")
                } else {
                    cases.append("    <testcase classname=\"run\" name=\"\(name)\"/>")
                }
            }
            totalTests += cases.count
            totalFailures += failures
            let suiteName = Format.escape("\(report.scenarioName) [\(cell.label)]")
            suites.append("  <testsuite name=\"\(suiteName)\" tests=\"\(cases.count)\" failures=\"\(failures)\" time=\"\(report.durationS)\">\n"
                          + cases.joined(separator: "\n") + "\n  </testsuite>")
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="\(Format.escape(report.scenarioName))" tests="\(totalTests)" failures="\(totalFailures)">
        \(suites.joined(separator: "\n"))
        </testsuites>

        """
    }

    /// The run-level cases: name and failure message (nil when it passed).
    static func runCases(_ report: RunReport) -> [(String, String?)] {
        [
            ("run completed", report.interrupted ? "interrupted before the planned end" : report.abortReason),
            ("harness not saturated", report.invalidReason.map { "invalid: harness saturated: \($0)" }),
        ] + (report.mergedShards == nil && report.shardProblems == nil ? [] : [
            ("every shard merged", report.shardProblems.map { $0.joined(separator: "; ") }),
        ])
    }
}
