import RTCBase
/// What is wrong with a scenario, and where: `groups[1].media.video.codec: "vp10" is not
/// one of vp8, vp9, h264`. Nothing starts while a scenario has an error.
public struct ScenarioError: Error, Equatable, CustomStringConvertible {
    /// The field, as a path from the top of the file (empty for the file itself).
    public let path: String
    public let message: String

    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// A string field with a fixed set of values; messages list them.
public protocol AllowedValues: CaseIterable, RawRepresentable, Codable, Sendable where RawValue == String {}

extension AllowedValues {
    public static var allowedList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// The Levenshtein distance, for "did you mean" hints.
func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a), y = Array(b)
    guard !x.isEmpty else { return y.count }
    guard !y.isEmpty else { return x.count }
    var previous = Array(0...y.count)
    for i in 1...x.count {
        var row = [i] + Array(repeating: 0, count: y.count)
        for j in 1...y.count {
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
        }
        previous = row
    }
    return previous[y.count]
}

/// The closest of `candidates` to `word`, if it is close enough to be a typo or the
/// word is a shortened form (`bitrate` for `bitrate_kbps`).
func closest(to word: String, in candidates: some Sequence<String>) -> String? {
    let scored = candidates.map { candidate in
        (candidate, candidate.hasPrefix(word) && word.count >= 3 ? 1 : editDistance(word, candidate))
    }.filter { $0.1 <= max(2, word.count / 3) }
    return scored.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
}

/// A number as a person writes it: `-1`, `2.5`.
func formatNumber(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}
