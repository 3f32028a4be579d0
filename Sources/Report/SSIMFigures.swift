/// A decoded stream's SSIM (Y plane, `Quality.ssimY`) over its frames compared with the
/// regenerated reference of the same frame code: the mean, the 5th percentile (nearest
/// rank: 95 % of the frames were at least this good) and the worst frame.
public struct SSIMFigures: Codable, Equatable, Sendable {
    public var mean: Double
    public var p5: Double
    public var min: Double
    public var frames: Int

    /// Nil without a frame.
    public init?(frames values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        mean = values.reduce(0, +) / Double(values.count)
        p5 = sorted[Swift.max(0, Int((0.05 * Double(sorted.count)).rounded(.up)) - 1)]
        min = sorted[0]
        frames = values.count
    }
}
