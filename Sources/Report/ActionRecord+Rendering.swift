extension ActionRecord {
    /// summary.md's table of a cell's timeline actions: one row each, its figures by name.
    static func markdown(_ actions: [ActionRecord], cell: String) -> [String] {
        guard !actions.isEmpty else { return [] }
        var lines = ["Timeline actions\(cell.isEmpty ? "" : " (\(cell))"):", "",
                     "| # | at s | group | action | peers | cost at the receivers |", "|---|---|---|---|---|---|"]
        for action in actions {
            let figures = action.figures.keys.sorted().map { "`\($0)` \(action.figures[$0]?.text ?? "")" }
            lines.append("| \(action.entry) | \(Format.number(action.atS)) | \(action.group) | \(action.action) | \(action.peers) | "
                         + (figures.isEmpty ? "-" : figures.joined(separator: "; ")) + " |")
        }
        return lines + [""]
    }
}
