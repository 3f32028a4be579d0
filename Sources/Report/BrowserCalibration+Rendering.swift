extension CalibrationRow {
    static let columns = ["role", "figure", "rtcswarm (peers)", "Chromium (peers)", "Chromium − rtcswarm"]

    var cells: [String] {
        let percent = difference.flatMap { difference in native.flatMap { $0 == 0 ? nil : " (\(Format.number(difference / $0 * 100)) %)" } } ?? ""
        return [role, figure, "\(Format.number(native)) (\(nativePeers))", "\(Format.number(browser)) (\(browserPeers))",
                Format.number(difference) + percent]
    }

    static func heading(cell: String) -> String {
        "Native vs browser\(cell.isEmpty ? "" : " (\(cell))"): medians over each side's peers of the same role; Chromium's from its own "
            + "timings and getStats() (its jitter is the last value, rtcswarm's the stream's mean)"
    }

    /// summary.md's calibration table for one cell.
    static func markdown(_ rows: [CalibrationRow], cell: String) -> [String] {
        guard !rows.isEmpty else { return [] }
        return [heading(cell: cell) + ":", "", "| " + columns.joined(separator: " | ") + " |", "|" + String(repeating: "---|", count: columns.count)]
            + rows.map { "| " + $0.cells.map(InteropMatrixMarkdown.escape).joined(separator: " | ") + " |" } + [""]
    }

    /// report.html's calibration table for one cell.
    static func html(_ rows: [CalibrationRow], cell: String) -> String {
        guard !rows.isEmpty else { return "" }
        return "<p>\(Format.escape(heading(cell: cell)))</p><table class=\"calibration\"><tr>" + columns.map { "<th>\(Format.escape($0))</th>" }.joined()
            + "</tr>" + rows.map { "<tr>" + $0.cells.map { "<td>\(Format.escape($0))</td>" }.joined() + "</tr>" }.joined() + "</table>"
    }
}
