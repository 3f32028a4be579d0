/// Interop results arranged as a matrix: one row per target and role, one column per
/// codec, several results for the same cell merged into one verdict.
public struct InteropMatrix: Equatable, Sendable {
    /// A target in one role: a row.
    public struct Row: Hashable, Sendable {
        public var target: String
        public var role: String

        public init(target: String, role: String) {
            self.target = target
            self.role = role
        }
    }

    /// Every result that fell into one cell, merged.
    public struct Cell: Equatable, Sendable {
        public var results: [InteropResult]

        /// The worst outcome among the results.
        public var outcome: InteropResult.Outcome { results.map(\.outcome).max() ?? .skipped }
        /// The results with the worst outcome, whose figures and reasons the cell shows.
        public var worst: [InteropResult] { results.filter { $0.outcome == outcome } }
        /// The longest setup among the worst results.
        public var setupMs: Double? { worst.compactMap(\.setupMs).max() }
        /// The highest loss among the worst results.
        public var lossPct: Double? { worst.compactMap(\.lossPct).max() }
        /// Every distinct resolution among the worst results, in order.
        public var resolutions: [String] { Set(worst.compactMap(\.resolution)).sorted() }
        /// The first reason among the worst results, by test name.
        public var reason: String? { worst.sorted { $0.test < $1.test }.lazy.compactMap(\.reason).first }
    }

    /// Columns in the order they are shown: the known codecs first, "signaling" last.
    public let codecs: [String]
    public let rows: [Row]
    public let cells: [Row: [String: Cell]]
    /// Each target's version as its results report it (the newest that says one).
    public let versions: [String: String]

    /// The column every room-protocol-only result goes into.
    public static let signaling = "signaling"
    /// Columns with a fixed place, left to right; any other codec goes after them, by name.
    public static let knownCodecs = ["VP8+Opus", "H.264+Opus", "VP9+Opus", "AV1+Opus"]

    public init(_ results: [InteropResult]) {
        var cells: [Row: [String: Cell]] = [:]
        var versions: [String: (at: String, version: String)] = [:]
        for result in results {
            let row = Row(target: result.target, role: result.role)
            cells[row, default: [:]][result.codec, default: Cell(results: [])].results.append(result)
            if let version = result.targetVersion, !version.isEmpty, versions[result.target].map({ $0.at <= result.recordedAt }) ?? true {
                versions[result.target] = (result.recordedAt, version)
            }
        }
        self.cells = cells
        self.versions = versions.mapValues(\.version)
        rows = cells.keys.sorted {
            ($0.target.lowercased(), $0.role.lowercased()) < ($1.target.lowercased(), $1.role.lowercased())
        }
        let present = Set(results.map(\.codec))
        let others = present.subtracting(Self.knownCodecs + [Self.signaling]).sorted()
        codecs = Self.knownCodecs.filter(present.contains) + others + (present.contains(Self.signaling) ? [Self.signaling] : [])
    }

    /// The merged cell at `row` and `codec`, nil when nothing there was tested.
    public func cell(_ row: Row, _ codec: String) -> Cell? { cells[row]?[codec] }

    /// "aiortc 1.16.0 — answerer (rtcswarm offers)": the target with its version, then the role.
    public func label(_ row: Row) -> String { "\(named(row.target)) — \(row.role)" }

    /// "Janus 1.1.2" for target "Janus" whether the version names it or not; the bare
    /// target when no result says its version.
    public func named(_ target: String) -> String {
        guard let version = versions[target] else { return target }
        return version.lowercased().hasPrefix(target.lowercased()) ? version : "\(target) \(version)"
    }
}
