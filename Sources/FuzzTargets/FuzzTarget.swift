/// One parser that reads bytes from the network or the user, as a fuzz target: what
/// libFuzzer's entry (`Fuzz/<name>.swift`) and the regression-replay test both feed it, so
/// the two can never drift apart.
public struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz.sh` takes and the folder of its crash inputs under `Tests/Fixtures/fuzz`.
    public let name: String
    /// Checked-in files, relative to the repository root, that seed its corpus.
    public let fixtures: [FixtureSelection]
    /// Valid inputs made with the project's own encoders, for formats no fixture holds.
    public let seeds: @Sendable () -> [[UInt8]]
    /// Feeds one input to the parser; true when the parser accepted it. It must never trap.
    public let run: @Sendable ([UInt8]) -> Bool

    public init(name: String, fixtures: [FixtureSelection] = [], seeds: @escaping @Sendable () -> [[UInt8]],
                run: @escaping @Sendable ([UInt8]) -> Bool) {
        self.name = name
        self.fixtures = fixtures
        self.seeds = seeds
        self.run = run
    }

    /// Every target, in the order `scripts/fuzz.sh` runs them (network parsers first).
    public static let all: [FuzzTarget] = [
        .stun, .rtp, .srtp, .sctp, .sdp, .http, .websocket, .socketio, .room, .json, .scenario, .threshold,
        .depacketizer, .bitstream, .mediafile,
    ]

    /// The target called `name`, if there is one.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// Files of one kind under one folder of the repository, e.g. every `.sdp` in `Tests/Fixtures`.
public struct FixtureSelection: Sendable {
    public let directory: String
    public let suffix: String
    /// When true each line of a file is one input (NDJSON captures); otherwise the whole file is.
    public let byLine: Bool

    public init(_ directory: String, suffix: String, byLine: Bool = false) {
        self.directory = directory
        self.suffix = suffix
        self.byLine = byLine
    }
}
