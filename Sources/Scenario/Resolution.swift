import RTCBase

/// A video size is written `WIDTHxHEIGHT` in scenario files (`1280x720`).
extension Resolution: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = Resolution(text) else {
            throw ScenarioError(path: ScenarioKeys.path(decoder.codingPath),
                                "\"\(text)\" is not a resolution; write WIDTHxHEIGHT, e.g. \"1280x720\"")
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public static let smallest = Resolution(width: 160, height: 90)
    public static let largest = Resolution(width: 3840, height: 2160)
}

/// A pass/fail rule over the figures of METRICS.md (`setup_ms.p95 < 500`); each becomes
/// one JUnit test case. Written as a string, or as an object to abort the run early.
public struct ThresholdSpec: Codable, Equatable, Sendable {
    public var expr: String
    /// Stop the run as soon as this threshold fails (default false).
    public var abortOnFail: Bool?

    public init(expr: String, abortOnFail: Bool? = nil) {
        self.expr = expr
        self.abortOnFail = abortOnFail
    }

    private enum CodingKeys: String, CodingKey { case expr, abortOnFail }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self.init(expr: text)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(expr: try container.decode(String.self, forKey: .expr),
                  abortOnFail: try container.decodeIfPresent(Bool.self, forKey: .abortOnFail))
    }
}
