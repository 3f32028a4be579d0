/// rtcswarm's peers beside the Chromium peers of the same role in one cell
/// (`groups[].client: "chromium"`): for each figure, the median over each side's peers and
/// the difference, so a reader sees how far rtcswarm's figures are from what a browser
/// measured itself (its own timings and `getStats()`) on the same server at the same time.
public struct CalibrationRow: Codable, Equatable, Sendable {
    /// `player` or `publisher`.
    public var role: String
    /// A report name (`ice_ms`, `video.jitter_ms`).
    public var figure: String
    /// The median over the rtcswarm peers that have the figure, and over the Chromium ones.
    public var native: Double?
    public var browser: Double?
    public var nativePeers: Int
    public var browserPeers: Int

    /// Chromium's median minus rtcswarm's.
    public var difference: Double? { native.flatMap { native in browser.map { $0 - native } } }
}

extension CalibrationRow {
    /// The rows of one cell's records; empty when no Chromium peer is in it.
    public static func rows(_ records: [PeerRecord]) -> [CalibrationRow] {
        let browsers = records.filter { $0.client == "chromium" }
        let roles = Set(browsers.map(\.role)).sorted()
        return roles.flatMap { role -> [CalibrationRow] in
            let natives = records.filter { $0.client == nil && $0.role == role }
            let chromium = browsers.filter { $0.role == role }
            return figures(role).map { name, nativeFigure, browserFigure in
                let native = natives.compactMap(nativeFigure), browser = chromium.compactMap(browserFigure)
                return CalibrationRow(role: role, figure: name, native: median(native), browser: median(browser),
                                      nativePeers: native.count, browserPeers: browser.count)
            }
        }
    }

    private typealias Figure = (PeerRecord) -> Double?

    /// Each figure a role has on both sides: the setup phases (rtcswarm's as METRICS.md
    /// defines them, the page's timed the same way), then what players received or
    /// publishers sent (rtcswarm's stream records, Chromium's `inbound-rtp`/`outbound-rtp`).
    private static func figures(_ role: String) -> [(String, Figure, Figure)] {
        let phases = ["setup_ms", "signaling_ms", "ice_ms", "dtls_ms"].map { name -> (String, Figure, Figure) in
            (name, { $0.phases[name] }, { $0.phases[name] })
        }
        func inbound(_ kind: String) -> (PeerRecord) -> BrowserStats.Stream? { { $0.browser?.stream("inbound", kind) } }
        func outbound(_ kind: String) -> (PeerRecord) -> BrowserStats.Stream? { { $0.browser?.stream("outbound", kind) } }
        func received(_ kind: String) -> (PeerRecord) -> StreamRecord? { { record in record.streams.first { $0.kind == kind } } }
        func sent(_ kind: String) -> (PeerRecord) -> SentStreamRecord? { { record in record.sentStreams?.first { $0.kind == kind } } }
        func lossPct(_ stream: BrowserStats.Stream?) -> Double? {
            guard let packets = stream?.packets, let lost = stream?.packetsLost, packets + lost > 0 else { return nil }
            return Double(lost) / Double(packets + lost) * 100
        }
        guard role == "player" else {
            return phases + ["video", "audio"].flatMap { kind -> [(String, Figure, Figure)] in
                [("\(kind).packets_sent", { sent(kind)($0).map { Double($0.packetsSent) } }, { outbound(kind)($0)?.packets.map(Double.init) })]
                    + (kind == "video" ? [("video.frames_sent", { sent(kind)($0).map { Double($0.framesSent) } },
                                           { outbound(kind)($0)?.frames.map(Double.init) })] : [])
            }
        }
        return phases + ["video", "audio"].flatMap { kind -> [(String, Figure, Figure)] in
            var rows: [(String, Figure, Figure)] = [
                ("\(kind).packets_received", { received(kind)($0).map { Double($0.packetsReceived) } }, { inbound(kind)($0)?.packets.map(Double.init) }),
                ("\(kind).loss_pct", { received(kind)($0)?.lossPct }, { lossPct(inbound(kind)($0)) }),
                ("\(kind).jitter_ms", { received(kind)($0)?.jitterMs }, { inbound(kind)($0)?.jitterMs }),
            ]
            if kind == "video" {
                rows += [
                    ("video.frames_received", { received(kind)($0).map { Double($0.framesReceived) } }, { inbound(kind)($0)?.frames.map(Double.init) }),
                    ("video.nacks", { received(kind)($0).map { Double($0.nacks) } }, { inbound(kind)($0)?.nackCount.map(Double.init) }),
                    ("video.frame_height", { received(kind)($0)?.resolutions.max { $0.value < $1.value }.flatMap { Double($0.key.split(separator: "x").last ?? "") } },
                     { inbound(kind)($0)?.frameHeight.map(Double.init) }),
                ]
            }
            return rows
        }
    }

    /// The middle value (the mean of the two middle ones for an even count); nil for none.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted(), middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
