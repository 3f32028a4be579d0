import Metrics

/// `report.html`: one self-contained file (inline CSS and SVG, a small inline script that
/// sorts the peer table and nothing fetched) with the verdict, the figures side by side,
/// the setup phases, the rooms' messages, and the charts: setup-time CDF, loss and jitter
/// distributions, per second the peers connected and failed, bitrate sent and received,
/// loss, NACKs, fps, worker lag and CPU, resolution survival, server-side figures; then the
/// workers and the peers ranked worst first.
public enum HTMLReport {
    public static func render(_ report: RunReport) -> String {
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(Format.escape(report.scenarioName)) - rtcswarm</title>
        \(style)</head><body>
        <h1>\(Format.escape(report.scenarioName))</h1>
        <p>rtcswarm \(Format.escape(report.rtcswarmVersion)), started \(Format.escape(report.startedAt)), \(Format.number(report.durationS)) s, seed \(report.seed)\(Format.escape(report.targetVersion.map { ", target \($0)" } ?? ""))\(Format.escape(report.iceProfile.map { ", ICE profile \($0)" } ?? ""))</p>
        <p class="verdict \(report.passed ? "pass" : "fail")">\(Format.escape(MarkdownSummary.verdict(report)))</p>

        """
        html += ShardSummary.lines(report).map { "<p>\(Format.escape($0))</p>" }.joined()
        html += (report.warnings ?? []).map { "<p class=\"verdict fail\">Warning: \(Format.escape($0))</p>" }.joined()
        html += figuresTable(report)
        html += thresholdsTable(report)
        html += phasesSection(report)
        html += calibrationSection(report) + roomsSection(report)
        html += "<h2>Charts</h2><div class=\"charts\">"
        html += charts(report).joined()
        html += "</div>"
        html += workersTable(report)
        html += peersTable(report)
        html += dataChannelsTable(report)
        html += "<h2>Scenario</h2><pre>\(Format.escape(report.resolvedScenario))</pre>\(sortScript)</body></html>\n"
        return html
    }

    /// The report pages' one stylesheet (report.html, compare.html).
    static let style = """
        <style>
        body{font-family:sans-serif;margin:24px;color:#222;max-width:1400px}
        table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
        th:first-child,td:first-child{text-align:left}.verdict{padding:8px 12px;font-weight:bold;display:inline-block}
        .pass{background:#d9f2d9}.fail{background:#f8d7da}.charts{display:flex;flex-wrap:wrap;gap:12px}
        .charts svg{border:1px solid #ddd;background:#fff}pre{white-space:pre-wrap;overflow-wrap:anywhere}
        </style>
        """

    /// The charts that have data; a signaling run shows join and relay times instead of
    /// the media charts it has no figures for.
    static func charts(_ report: RunReport) -> [String] {
        let cells = report.cells
        func cdf(_ names: MetricName...) -> [SVGChart.Series] {
            cells.flatMap { cell in
                names.compactMap { name in
                    guard let histogram = cell.metrics.histograms[name], histogram.count > 0 else { return nil }
                    let points = stride(from: 0.0, through: 100.0, by: 2.0).compactMap { q in histogram.percentile(q).map { (x: $0, y: q) } }
                    let kind = names.count > 1 ? name.rawValue.split(separator: ".").first.map(String.init) : nil
                    return SVGChart.Series(name: [cells.count > 1 || kind == nil ? cell.label : nil, kind].compactMap { $0 }.joined(separator: " "),
                                           points: points)
                }
            }
        }
        /// One line per cell and figure, named by the figure when a chart has several.
        func overTime(_ figures: [(name: String, value: (TimeSample) -> Double?)]) -> [SVGChart.Series] {
            cells.filter { !$0.timeSeries.isEmpty }.flatMap { cell in
                figures.map { figure in
                    SVGChart.Series(name: [cells.count > 1 || figures.count == 1 ? cell.label : nil, figures.count > 1 ? figure.name : nil]
                                        .compactMap { $0 }.joined(separator: " "),
                                    points: cell.timeSeries.compactMap { sample in figure.value(sample).map { (x: sample.tS, y: $0) } })
                }
            }
        }
        func overTime(_ value: @escaping (TimeSample) -> Double?) -> [SVGChart.Series] { overTime([("", value)]) }
        // Every timeline action, once, on every time-series chart.
        let markers = cells.flatMap { $0.actions ?? [] }.reduce(into: [SVGChart.Marker]()) { list, action in
            let marker = SVGChart.Marker(x: action.atS, label: action.action)
            if !list.contains(marker) { list.append(marker) }
        }
        func any(_ value: (TimeSample) -> Double?) -> Bool { cells.contains { $0.timeSeries.contains { (value($0) ?? 0) > 0 } } }
        var charts: [String?] = [
            SVGChart.lines(title: "Setup time (CDF)", xLabel: "setup_ms", yLabel: "% of peers", series: cdf(.setupMs)),
            SVGChart.lines(title: "Room join time (CDF)", xLabel: "join_ms", yLabel: "% of members", series: cdf(.joinMs)),
            SVGChart.lines(title: "Message relay time (CDF)", xLabel: "relay_ms", yLabel: "% of messages", series: cdf(.relayMs)),
            SVGChart.lines(title: "Packet loss per stream (CDF)", xLabel: "loss_pct", yLabel: "% of streams", series: cdf(.videoLossPct, .audioLossPct)),
            SVGChart.lines(title: "Jitter per stream (CDF)", xLabel: "jitter_ms", yLabel: "% of streams", series: cdf(.videoJitterMs, .audioJitterMs)),
            SVGChart.lines(title: "Peers connected and failed", xLabel: "s", markers: markers, yLabel: "peers",
                           series: overTime([("connected", { Double($0.connectedPeers) }), ("failed", { Double($0.failedPeers) })])),
            SVGChart.lines(title: "Bitrate sent and received", xLabel: "s", markers: markers, yLabel: "kbit/s",
                           series: any(\.receiveKbps) || any(\.sendKbps) ? overTime([("sent", \.sendKbps), ("received", \.receiveKbps)]) : []),
            SVGChart.lines(title: "First-pass loss per second", xLabel: "s", markers: markers, yLabel: "% of packets", series: overTime(\.lossPct)),
            SVGChart.lines(title: "NACKs sent per second", xLabel: "s", markers: markers, yLabel: "NACKs/s",
                           series: any(\.nacksPerS) ? overTime(\.nacksPerS) : []),
            SVGChart.lines(title: "Received fps per video stream", xLabel: "s", markers: markers, yLabel: "fps", series: overTime(\.fps)),
            SVGChart.lines(title: "Video freezes per second", xLabel: "s", markers: markers, yLabel: "freezes",
                           series: overTime { $0.freezes.map(Double.init) }),
            SVGChart.lines(title: "Jitter of the streams being received", xLabel: "s", markers: markers, yLabel: "ms",
                           series: overTime([("video p50", \.videoJitterP50Ms), ("video p95", \.videoJitterP95Ms),
                                             ("audio p50", \.audioJitterP50Ms), ("audio p95", \.audioJitterP95Ms)])),
            SVGChart.lines(title: "Room message relay time per second", xLabel: "s", markers: markers, yLabel: "ms",
                           series: overTime([("p50", \.relayP50Ms), ("p95", \.relayP95Ms)])),
            SVGChart.lines(title: "Worker event-loop lag p99", xLabel: "s", markers: markers, yLabel: "ms", series: any(\.lagP99Ms) ? overTime(\.lagP99Ms) : []),
            SVGChart.lines(title: "Busiest worker's CPU", xLabel: "s", markers: markers, yLabel: "% of a core", series: overTime(\.cpuPct)),
            SVGChart.bars(title: "Resolution survival, minimum per cell", yLabel: "%", bars: cells.compactMap { cell in
                cell.metrics.value(at: MetricAddress(.resolutionSurvival, .min)).map { (label: cell.label, value: $0) }
            }),
        ]
        let resolutions = ResolutionCounts(cells)
        charts.append(SVGChart.bars(title: "Video frames received by resolution (\(resolutions.framesReceived) in all)", yLabel: "frames",
                                    bars: resolutions.rows.map { (label: $0.size, value: Double($0.frames)) }))
        for key in Set(cells.flatMap(\.serverSamples).flatMap(\.values.keys)).sorted() {
            charts.append(SVGChart.lines(title: "Server: \(key)", xLabel: "s", markers: markers, yLabel: key, series: cells.map { cell in
                SVGChart.Series(name: cell.label, points: cell.serverSamples.compactMap { sample in sample.values[key].map { (x: sample.tS, y: $0) } })
            }))
        }
        return charts.compactMap { $0 }
    }

    private static func figuresTable(_ report: RunReport) -> String {
        let rows = SummaryRows.rows(for: report.cells)
        guard !rows.isEmpty else { return "<p>No figures were recorded.</p>" }
        var html = "<h2>Figures</h2><table><tr><th>figure</th>" + report.cells.map { "<th>\(Format.escape($0.label))</th>" }.joined() + "</tr>"
        for (address, values) in rows {
            html += "<tr><td>\(address)</td>" + values.map { "<td>\(Format.number($0))</td>" }.joined() + "</tr>"
        }
        return html + "</table>"
    }

    /// Each cell's setup phases: the percentiles and the median beside the slow tail.
    private static func phasesSection(_ report: RunReport) -> String {
        let sections = report.cells.compactMap { cell in
            PhaseBreakdown(cell)?.html(cell: report.cells.count > 1 ? cell.label : "")
        }
        return sections.isEmpty ? "" : "<h2>Setup phases</h2>" + sections.joined()
    }

    /// Each cell's native-vs-browser table (`groups[].client: "chromium"`).
    private static func calibrationSection(_ report: RunReport) -> String {
        let sections = report.cells.map { CalibrationRow.html($0.calibration ?? [], cell: report.cells.count > 1 ? $0.label : "") }
        return sections.allSatisfy(\.isEmpty) ? "" : "<h2>Native vs browser</h2>" + sections.joined()
    }

    /// Each cell's room messages: the total and the rooms that lost most.
    private static func roomsSection(_ report: RunReport) -> String {
        let sections = report.cells.map { RoomMessageSummary.html($0.rooms ?? [], cell: report.cells.count > 1 ? $0.label : "") }
        return sections.allSatisfy(\.isEmpty) ? "" : "<h2>Rooms</h2>" + sections.joined()
    }

    private static func thresholdsTable(_ report: RunReport) -> String {
        let rows = report.cells.flatMap { cell in cell.thresholds.map { (cell.label, $0) } }
        guard !rows.isEmpty else { return "" }
        var html = "<h2>Thresholds</h2><table><tr><th>threshold</th><th>cell</th><th>measured</th><th>result</th></tr>"
        for (label, outcome) in rows {
            html += "<tr class=\"\(outcome.passed ? "pass" : "fail")\"><td>\(Format.escape(outcome.title))</td><td>\(Format.escape(label))</td>"
                + "<td>\(Format.number(outcome.measured))</td><td>\(outcome.passed ? "pass" : "FAIL")</td></tr>"
        }
        return html + "</table>"
    }

    private static func workersTable(_ report: RunReport) -> String {
        guard !report.workers.isEmpty else { return "" }
        var html = "<h2>Workers</h2><table><tr><th>worker</th><th>peers</th><th>CPU %</th><th>encoders CPU %</th><th>CPU ms per peer-s</th><th>CPU us per packet</th><th>RSS MB</th><th>lag p50 ms</th><th>lag p99 ms</th><th>lag max ms</th><th>socket drops</th><th>send errors</th></tr>"
        for worker in report.workers {
            html += "<tr><td>\(worker.index)</td><td>\(worker.peers)</td><td>\(Format.number(worker.cpuPct))</td>"
                + "<td>\(worker.encoderCpuPct.map(Format.number) ?? "")</td><td>\(worker.cpuMsPerPeerSecond.map(Format.number) ?? "")</td>"
                + "<td>\(worker.cpuUsPerPacket.map(Format.number) ?? "")</td><td>\(Format.number(worker.rssMB))</td>"
                + "<td>\(Format.number(worker.lagP50Ms))</td><td>\(Format.number(worker.lagP99Ms))</td><td>\(Format.number(worker.lagMaxMs))</td>"
                + "<td>\(worker.socketDrops)</td><td>\(worker.sendErrors)</td></tr>"
        }
        return html + "</table>"
    }
}
