/// Which peers a report lists first, by one stated rule: failed peers first, then the
/// largest video frame loss, then the longest freeze time, then the slowest setup; the
/// peer id breaks ties, so the order is the same on every run of the report.
enum PeerRanking {
    /// The rule in words, printed above every ranked table.
    static let rule = "ranked: failed first, then by frame loss % (worst video stream), then freeze time (ms, all video streams), "
        + "then setup_ms (none counts as slowest)"
    /// A big run lists this many peers.
    static let limit = 200

    /// The figures the rule compares, worst first.
    struct Key: Comparable {
        let failed: Bool
        let frameLossPct: Double
        let freezeMs: Double
        let setupMs: Double
        let id: String

        init(_ peer: PeerRecord) {
            let video = peer.streams.filter { $0.kind == "video" }
            failed = peer.outcome == .failed
            frameLossPct = video.map(\.frameLossPct).max() ?? 0
            freezeMs = video.reduce(0) { $0 + $1.freezeMs }
            setupMs = peer.phases["setup_ms"] ?? .infinity
            id = peer.id
        }

        /// `a < b` when `a` is the worse peer, so ascending order is worst first.
        static func < (a: Key, b: Key) -> Bool {
            if a.failed != b.failed { return a.failed }
            if a.frameLossPct != b.frameLossPct { return a.frameLossPct > b.frameLossPct }
            if a.freezeMs != b.freezeMs { return a.freezeMs > b.freezeMs }
            if a.setupMs != b.setupMs { return a.setupMs > b.setupMs }
            return a.id < b.id
        }
    }

    /// The peers of every cell, worst first, at most `limit`.
    static func worst(_ cells: [CellReport], limit: Int = PeerRanking.limit) -> [(cell: String, peer: PeerRecord)] {
        let peers = cells.flatMap { cell in cell.peers.map { (cell: cell.label, peer: $0, key: Key($0)) } }
        return peers.sorted { $0.key < $1.key }.prefix(limit).map { (cell: $0.cell, peer: $0.peer) }
    }
}
