/// The allowed range of each whole-number field, in one place: validation checks values
/// against it, and the decoder names it when a number does not even fit an integer, so
/// `count: 1e23` says "must be from 1 to 1000000" rather than the range of Int64.
enum IntegerLimits {
    static let count = 1...1_000_000
    static let fps = 1...120
    static let videoBitrateKbps = 30...50_000
    static let audioBitrateKbps = 6...510
    static let roomCapacity = 2...1_000
    static let workers = 1...256

    /// By field shape (`ScenarioLoader.generic`: list indices removed).
    static let byField: [String: ClosedRange<Int>] = [
        "groups[].count": count,
        "groups[].media.video.fps": fps,
        "groups[].media.video.bitrate_kbps": videoBitrateKbps,
        "matrix.bitrate_kbps[]": videoBitrateKbps,
        "groups[].media.audio.bitrate_kbps": audioBitrateKbps,
        "target.room.capacity": roomCapacity,
        "run.workers": workers,
    ]

    /// `"1e+23 must be from 1 to 1000000"`.
    static func outside(_ value: String, _ range: ClosedRange<Int>) -> String {
        "\(value) must be from \(range.lowerBound) to \(range.upperBound)"
    }
}
