extension HTMLReport {
    /// Sorts a `table.sortable` by the clicked column (numbers by their `data-v`); the
    /// table is already in rank order, so without scripts it reads the same, unsorted.
    /// A click on a peer's row opens its per-second chart below the table (closed
    /// `<details>`, each readable without scripts).
    static let sortScript = """
        <script>
        document.querySelectorAll("table.sortable th").forEach(function (th, column) {
          th.style.cursor = "pointer";
          th.addEventListener("click", function () {
            var body = th.closest("table").tBodies[0], down = th.dataset.order !== "down";
            th.dataset.order = down ? "down" : "up";
            Array.from(body.rows).sort(function (a, b) {
              var x = a.cells[column], y = b.cells[column];
              var order = x.dataset.v !== undefined ? Number(x.dataset.v) - Number(y.dataset.v) : x.textContent.localeCompare(y.textContent);
              return down ? -order : order;
            }).forEach(function (row) { body.appendChild(row); });
          });
        });
        document.querySelectorAll("table.peers tr[data-peer]").forEach(function (row) {
          row.style.cursor = "pointer";
          row.addEventListener("click", function () {
            var details = document.getElementById(row.dataset.peer);
            if (!details) return;
            details.open = true;
            details.scrollIntoView({ block: "nearest" });
          });
        });
        </script>

        """

    /// Every peer, or the worst `PeerRanking.limit` in a big run, with the rule that
    /// ranked them: its phases, streams, loss, frames, freezes, fps, sizes and failure.
    static func peersTable(_ report: RunReport) -> String {
        let ranked = PeerRanking.worst(report.cells)
        guard !ranked.isEmpty else { return "" }
        let total = report.cells.reduce(0) { $0 + $1.peers.count }
        let cells = report.cells.count > 1
        var html = "<h2>Peers</h2><p>\(ranked.count == total ? "All \(total) peers" : "The worst \(ranked.count) of \(total) peers"), "
            + "\(Format.escape(PeerRanking.rule)). Click a column to sort by it.</p>"
        let headers = ["rank", "peer"] + (cells ? ["cell"] : []) + ["role", "outcome", "setup ms", "signaling ms", "ICE ms", "DTLS ms",
                       "first frame ms", "streams", "loss %", "residual loss %", "frame loss %", "freeze ms", "fps", "resolutions", "failure"]
        html += "<table class=\"sortable peers\"><thead><tr>" + headers.map { "<th>\($0)</th>" }.joined() + "</tr></thead><tbody>"
        for (rank, entry) in ranked.enumerated() {
            let peer = entry.peer
            let video = peer.streams.filter { $0.kind == "video" }
            var row = [number(Double(rank + 1)), text(peer.id)] + (cells ? [text(entry.cell)] : []) + [text(peer.role), text(peer.outcome.rawValue)]
            row += ["setup_ms", "signaling_ms", "ice_ms", "dtls_ms", "first_frame_ms"].map { number(peer.phases[$0]) }
            row.append(text(peer.streams.map { "\($0.kind) \($0.codec)" }.joined(separator: ", ")))
            row += [number(peer.streams.map(\.lossPct).max()), number(peer.streams.map(\.residualLossPct).max()),
                    number(video.map(\.frameLossPct).max()), number(video.isEmpty ? nil : video.reduce(0) { $0 + $1.freezeMs }),
                    number(video.map(\.fps).min())]
            let sizes = video.flatMap { stream in
                stream.resolutions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" } + (stream.framesOfUnknownSize > 0 ? ["unknown \(stream.framesOfUnknownSize)"] : [])
            }
            row.append(text(sizes.joined(separator: ", ")))
            row.append(text([peer.failedPhase.map { "in \($0)" }, peer.failureReason].compactMap { $0 }.joined(separator: ": ")))
            let opens = peer.series == nil ? "" : " data-peer=\"peer-series-\(rank + 1)\""
            html += "<tr class=\"\(peer.outcome == .failed ? "fail" : "")\"\(opens)>" + row.joined() + "</tr>"
        }
        return html + "</tbody></table>" + seriesCharts(ranked.map(\.peer))
    }

    /// Each ranked peer's own seconds (`PeerRecord.series`): fps, loss, jitter and freezes
    /// on one chart, in a closed `<details>` its table row opens.
    private static func seriesCharts(_ peers: [PeerRecord]) -> String {
        var html = ""
        for (rank, peer) in peers.enumerated() {
            guard let seconds = peer.series else { continue }
            func line(_ name: String, _ value: (PeerSecond) -> Double?) -> SVGChart.Series {
                SVGChart.Series(name: name, points: seconds.compactMap { second in value(second).map { (x: second.tS, y: $0) } })
            }
            let chart = SVGChart.lines(title: "Peer \(peer.id), second by second", xLabel: "s", yLabel: "fps, %, ms, count", series: [
                line("fps", \.fps), line("first-pass loss %", \.lossPct), line("video jitter ms", \.videoJitterMs),
                line("audio jitter ms", \.audioJitterMs), line("freezes", { $0.freezes.map(Double.init) }),
            ])
            guard let chart else { continue }
            html += "<details id=\"peer-series-\(rank + 1)\"><summary>#\(rank + 1) \(Format.escape(peer.id))</summary>\(chart)</details>"
        }
        return html.isEmpty ? "" : "<h3>Each peer over time</h3><p>Click a peer's row to open its chart.</p>" + html
    }

    /// A number cell: sorted by its value (nothing measured sorts below every value).
    static func number(_ value: Double?) -> String {
        "<td data-v=\"\(value.map { String($0) } ?? "-1")\">\(Format.number(value))</td>"
    }

    static func text(_ value: String) -> String { "<td style=\"text-align:left\">\(Format.escape(value))</td>" }
}
