import Foundation

/// `INTEROP.md`: the interop matrix as a Markdown page. A header says when, by which
/// rtcswarm, on which machine and against which target versions; the table has one row
/// per target and role and one column per codec.
public enum InteropMatrixMarkdown {
    /// What the header says about the run the results came from.
    public struct Context: Sendable {
        public var rtcswarmVersion: String
        /// "Linux 6.1.0 x86_64, 2 cores, 7.7 GiB".
        public var machine: String

        public init(rtcswarmVersion: String, machine: String) {
            self.rtcswarmVersion = rtcswarmVersion
            self.machine = machine
        }
    }

    /// Longer reasons are cut here so a row stays readable; the result file has them whole.
    static let reasonLimit = 140

    public static func render(_ matrix: InteropMatrix, context: Context, unreadable: [String] = []) -> String {
        let all = matrix.rows.flatMap { row in matrix.codecs.compactMap { matrix.cell(row, $0) } }
        let newest = all.flatMap(\.results).map(\.recordedAt).max() ?? "-"
        var lines = ["# Interop matrix", ""]
        lines.append("Generated from the interop tests (`Tests/InteropTests`) finished at \(newest) by rtcswarm "
                     + "\(context.rtcswarmVersion) on \(context.machine). Regenerate it as the README's \"Interop matrix\" says.")
        lines.append("")
        let count = { (outcome: InteropResult.Outcome) in all.filter { $0.outcome == outcome }.count }
        lines.append("\(all.count) cells: \(count(.pass)) pass, \(count(.fail)) fail, \(count(.skipped)) skipped.")
        lines.append("")
        lines.append("Target versions (Janus from `/janus/info`, SRS from `/api/v1/versions`, Chromium from `chromium --version`, "
                     + "Python packages from their pip metadata, coturn from `turnserver --version`):")
        lines.append("")
        let targets = Set(matrix.rows.map(\.target)).sorted { $0.lowercased() < $1.lowercased() }
        for target in targets {
            lines.append("- " + (matrix.versions[target] == nil ? "\(target): version unknown (no test reached it)" : matrix.named(target)))
        }
        lines.append("")
        lines.append("| target — role | " + matrix.codecs.joined(separator: " | ") + " |")
        lines.append("|---|" + String(repeating: "---|", count: matrix.codecs.count))
        for row in matrix.rows {
            let cells = matrix.codecs.map { matrix.cell(row, $0).map(text) ?? "—" }
            lines.append("| " + escape(matrix.label(row)) + " | " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append("A cell merges every test of its row and codec and shows the worst outcome (fail, then skipped, then pass) "
                     + "with the longest setup and the highest loss among those tests. Setup: from the call's start to connected; "
                     + "loss: video loss in percent; resolution: the received video's; signaling: no media flows (room protocol, "
                     + "negotiation, TURN control). — means not tested.")
        if !unreadable.isEmpty {
            lines += ["", "Unreadable result files (left out above):", ""]
            lines += unreadable.map { "- " + escape($0) }
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// One cell: "pass · setup 57 ms · loss 0 % · 320x180", "FAIL: reason", "skipped: reason";
    /// "(2 of 3 tests)" when only some of the merged tests share the shown outcome.
    static func text(_ cell: InteropMatrix.Cell) -> String {
        var parts: [String]
        switch cell.outcome {
        case .pass:
            parts = ["pass"]
            if let setup = cell.setupMs { parts.append("setup \(Format.number(setup)) ms") }
            if let loss = cell.lossPct { parts.append("loss \(Format.number(loss)) %") }
            if !cell.resolutions.isEmpty { parts.append(cell.resolutions.joined(separator: ", ")) }
        case .fail:
            parts = ["**FAIL**: " + shortened(cell.reason ?? "no reason recorded")]
        case .skipped:
            parts = ["skipped: " + shortened(cell.reason ?? "no reason recorded")]
        }
        var text = parts.joined(separator: " · ")
        let total = cell.results.count
        if total > 1 { text += cell.worst.count == total ? " (\(total) tests)" : " (\(cell.worst.count) of \(total) tests)" }
        return escape(text)
    }

    /// One line, at most `reasonLimit` characters.
    static func shortened(_ reason: String) -> String {
        let line = reason.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return line.count > reasonLimit ? String(line.prefix(reasonLimit - 1)) + "…" : line
    }

    /// Text safe inside a Markdown table cell: no pipe ends it, no newline breaks the row.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
