import Foundation
import Metrics

extension PhaseBreakdown {
    /// The segments of one stacked column: the parts of `setup_ms` (what setup took beyond
    /// signaling, ICE and DTLS is `other setup`: before the offer, waiting for a partner),
    /// then `first_frame_ms`, which starts when DTLS is done.
    func segments(_ value: (Row) -> Double?) -> [(name: String, value: Double)] {
        let parts: [MetricName] = [.signalingMs, .iceMs, .dtlsMs]
        var segments = parts.compactMap { phase in row(phase).flatMap(value).map { (name: phase.rawValue, value: $0) } }
        if let setup = row(.setupMs).flatMap(value) {
            segments.append((name: "other setup", value: Swift.max(0, setup - segments.reduce(0) { $0 + $1.value })))
        }
        if let frame = row(.firstFrameMs).flatMap(value) { segments.append((name: MetricName.firstFrameMs.rawValue, value: frame)) }
        return segments
    }

    /// summary.md's phases table for one cell, and the sentence on its tail.
    func markdown(cell: String) -> [String] {
        var lines = ["Setup phases\(cell.isEmpty ? "" : " (\(cell))"), ms:", "",
                     "| phase | p50 | p95 | p99 | max | slowest 5 % mean |", "|---|---|---|---|---|---|"]
        for row in rows {
            lines.append("| `\(row.phase.rawValue)` | \(Format.number(row.p50)) | \(Format.number(row.p95)) | \(Format.number(row.p99)) | "
                         + "\(Format.number(row.max)) | \(Format.number(row.tailMean)) |")
        }
        return lines + ["", tailSentence, ""]
    }

    /// report.html's phases table and the median and the slowest 5 % stacked side by side.
    func html(cell: String) -> String {
        var html = (cell.isEmpty ? "" : "<h3>\(Format.escape(cell))</h3>") + "<table class=\"phases\"><tr><th>phase (ms)</th><th>p50</th>"
            + "<th>p95</th><th>p99</th><th>max</th><th>slowest 5 % mean</th></tr>"
        for row in rows {
            html += "<tr><td>\(row.phase.rawValue)</td><td>\(Format.number(row.p50))</td><td>\(Format.number(row.p95))</td>"
                + "<td>\(Format.number(row.p99))</td><td>\(Format.number(row.max))</td><td>\(Format.number(row.tailMean))</td></tr>"
        }
        html += "</table><p>\(Format.escape(tailSentence.replacingOccurrences(of: "`", with: "")))</p>"
        let stacks = [SVGChart.Stack(label: "median (p50)", segments: segments(\.p50)),
                      SVGChart.Stack(label: "slowest 5 % (mean)", segments: segments(\.tailMean))]
        return html + (SVGChart.stacked(title: "Setup phases: median vs slowest 5 %", yLabel: "ms", stacks: stacks) ?? "")
    }
}
