/// One interop test's verdict on one cell of the interop matrix: which target (and its
/// version, as the target itself told it), in which role, with which codecs, how it went
/// and what it measured. The interop tests write one as JSON per test
/// (`WebRTCTestKit.InteropRecorder`); `rtcswarm interop-matrix` reads them back.
public struct InteropResult: Codable, Equatable, Sendable {
    /// How a test ended. Ordered from best to worst: merging keeps the worst.
    public enum Outcome: String, Codable, Comparable, Sendable {
        case pass
        /// Not run to the end: a target or tool was absent, or `SRS_URL` unset.
        case skipped
        case fail

        public static func < (lhs: Outcome, rhs: Outcome) -> Bool { lhs.rank < rhs.rank }

        private var rank: Int {
            switch self {
            case .pass: 0
            case .skipped: 1
            case .fail: 2
            }
        }
    }

    /// The software under test from the outside: "aiortc", "Janus", "coturn", "Chromium".
    public var target: String
    /// "aiortc 1.16.0", "Janus 1.1.2"; nil when the test never reached the target.
    public var targetVersion: String?
    /// What the target does in the call, and what rtcswarm does: "answerer (rtcswarm offers)".
    public var role: String
    /// The matrix column: "VP8+Opus", "H.264+Opus", or "signaling" when no media flows.
    public var codec: String
    public var outcome: Outcome
    /// Time to a connected call, as the test measured it.
    public var setupMs: Double?
    /// Video loss in percent, as the test measured it.
    public var lossPct: Double?
    /// Received video resolution, "320x180".
    public var resolution: String?
    /// Why it failed or skipped (the first failure's message, or the skip's reason).
    public var reason: String?
    /// The XCTest name, "-[AiortcPeerCoreInteropTests testRtcswarmOffererAnd...]".
    public var test: String
    /// When the test ended, ISO 8601 UTC.
    public var recordedAt: String

    public init(target: String, targetVersion: String? = nil, role: String, codec: String, outcome: Outcome,
                setupMs: Double? = nil, lossPct: Double? = nil, resolution: String? = nil, reason: String? = nil,
                test: String, recordedAt: String) {
        self.target = target
        self.targetVersion = targetVersion
        self.role = role
        self.codec = codec
        self.outcome = outcome
        self.setupMs = setupMs
        self.lossPct = lossPct
        self.resolution = resolution
        self.reason = reason
        self.test = test
        self.recordedAt = recordedAt
    }
}
