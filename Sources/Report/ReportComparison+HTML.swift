extension ReportComparison {
    /// `compare.html`: one self-contained page (no script) with both runs named, their
    /// verdicts, and every summary figure of every cell side by side; the figures that
    /// count as regressions (the rule of `init`, the one the Markdown uses) come first,
    /// highlighted and marked in words, so the page reads the same in black and white.
    public func html(old: RunReport, new: RunReport) -> String {
        func run(_ side: String, _ report: RunReport) -> String {
            "<tr><td>\(side)</td><td>\(Format.escape(report.scenarioName))</td><td>\(Format.escape(report.startedAt))</td>"
                + "<td>\(Format.escape(report.rtcswarmVersion))</td><td>\(Format.number(report.durationS))</td>"
                + "<td class=\"\(report.passed ? "pass" : "fail")\">\(Format.escape(MarkdownSummary.verdict(report)))</td></tr>"
        }
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(Format.escape(new.scenarioName)) compared - rtcswarm</title>
        \(HTMLReport.style)</head><body>
        <h1>\(Format.escape(old.scenarioName == new.scenarioName ? new.scenarioName : "\(old.scenarioName) / \(new.scenarioName)")): OLD and NEW</h1>
        <table><tr><th>run</th><th>scenario</th><th>started</th><th>rtcswarm</th><th>s</th><th>verdict</th></tr>
        """
        html += run("OLD", old) + run("NEW", new) + "</table>"
        html += "<p class=\"verdict \(regressions.isEmpty ? "pass" : "fail")\">"
            + (regressions.isEmpty ? "No regressions" : "\(regressions.count) regression(s)") + "</p>"
        html += "<p>A regression: a figure worse by more than the tolerance (\(Format.number(tolerancePct)) %) and by more than its "
            + "noise floor (5 ms, half a percentage point, one frame per second...).</p>"
        if !unmatchedCells.isEmpty { html += "<p>Cells in only one report: \(Format.escape(unmatchedCells.joined(separator: ", ")))</p>" }
        html += "<table><tr><th>cell</th><th>figure</th><th>OLD</th><th>NEW</th><th>change</th><th></th></tr>"
        for row in rows.sorted(by: { $0.regression && !$1.regression }) {
            html += "<tr\(row.regression ? " class=\"fail\"" : "")><td>\(Format.escape(row.cell))</td><td>\(Format.escape(row.figure))</td>"
                + "<td>\(Format.number(row.old))</td><td>\(Format.number(row.new))</td><td>\(row.changeText)</td>"
                + "<td>\(row.regression ? "REGRESSION" : "")</td></tr>"
        }
        return html + "</table></body></html>\n"
    }
}

extension ReportComparison.Row {
    /// `+12.5 %`, `-3 %`, or `from 0`.
    var changeText: String {
        changePct.map { ($0 >= 0 ? "+" : "") + Format.number($0) + " %" } ?? "from 0"
    }
}
