/// Video frames received by picture size over a report's cells, with the frames whose
/// size was never read as their own `unknown` row, so the rows add up to the frames received.
struct ResolutionCounts {
    static let unknown = "unknown"

    /// (size or `unknown`, frames), sizes in order, `unknown` last when there are any.
    let rows: [(size: String, frames: Int)]
    /// Video frames received: the sum of `rows`.
    let framesReceived: Int

    init(_ cells: [CellReport]) {
        let streams = cells.flatMap(\.peers).flatMap(\.streams).filter { $0.kind == "video" }
        let sized = streams.reduce(into: [String: Int]()) { totals, stream in
            for (size, frames) in stream.resolutions { totals[size, default: 0] += frames }
        }
        let unknown = streams.reduce(0) { $0 + $1.framesOfUnknownSize }
        rows = sized.sorted { $0.key < $1.key }.map { (size: $0.key, frames: $0.value) } + (unknown > 0 ? [(size: Self.unknown, frames: unknown)] : [])
        framesReceived = streams.reduce(0) { $0 + $1.framesReceived }
    }

    /// summary.md's table; empty without video.
    var markdown: [String] {
        guard framesReceived > 0 else { return [] }
        return ["| resolution | video frames |", "|---|---|"] + rows.map { "| \($0.size) | \($0.frames) |" }
            + ["| total (frames received) | \(framesReceived) |", ""]
    }
}
