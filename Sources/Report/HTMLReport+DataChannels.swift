extension HTMLReport {
    /// Every data channel of the ranked peers (`PeerRecord.dataChannels`), one row per
    /// channel and side: what it sent and received, lost and reordered, its open time
    /// (`dc_open_ms`), latency and throughput (docs/metrics.md, the `dc_` figures). Empty
    /// when no peer had a channel.
    static func dataChannelsTable(_ report: RunReport) -> String {
        let rows = PeerRanking.worst(report.cells).flatMap { entry in (entry.peer.dataChannels ?? []).map { (entry.peer, $0) } }
        guard !rows.isEmpty else { return "" }
        let headers = ["peer", "channel", "stream id", "ordered", "reliable", "open ms", "sent", "received", "lost", "reordered",
                       "latency mean ms", "latency max ms", "kbps", "received is"]
        var html = "<h2>Data channels</h2><p>Each channel as each side saw it, for the peers in the table above; "
            + "an echo's latency is half its round trip. Click a column to sort by it.</p>"
        html += "<table class=\"sortable\"><thead><tr>" + headers.map { "<th>\($0)</th>" }.joined() + "</tr></thead><tbody>"
        for (peer, channel) in rows {
            let row = [text(peer.id), text(channel.label), number(channel.streamId.map(Double.init)),
                       text(channel.ordered ? "yes" : "no"), text(channel.reliable ? "yes" : "no"), number(channel.openMs),
                       number(Double(channel.messagesSent)), number(Double(channel.messagesReceived)), number(Double(channel.messagesLost)),
                       number(Double(channel.reordered)), number(channel.latencyMeanMs), number(channel.latencyMaxMs),
                       number(channel.throughputKbps), text(channel.echoed ? "its echo" : "the other side's")]
            html += "<tr class=\"\(channel.openMs == nil ? "fail" : "")\">" + row.joined() + "</tr>"
        }
        return html + "</tbody></table>"
    }
}
