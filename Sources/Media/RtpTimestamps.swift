/// RTP timestamps derived from frame indices (shared/METRICS.md, "Frame identity").
///
/// At a constant rate, frame `i` gets `i * clockRate / frameRate` (modulo 2^32), so a
/// receiver can recover index deltas from timestamp deltas. When the rate changes, the
/// mapping continues from the last frame seen, so timestamps keep increasing.
public struct RtpTimestamps: Hashable, Sendable {
    public let clockRate: Int
    public private(set) var frameRate: Double
    private var baseIndex = 0
    private var baseTicks: Int64 = 0
    private var lastIndex = 0

    public init(clockRate: Int, frameRate: Double) {
        precondition(frameRate > 0, "frame rate must be positive")
        self.clockRate = clockRate
        self.frameRate = frameRate
    }

    /// The extended (64-bit) timestamp of frame `index`.
    public mutating func ticks(index: Int) -> Int64 {
        lastIndex = index
        return baseTicks + Int64((Double(index - baseIndex) * Double(clockRate) / frameRate).rounded())
    }

    /// The 32-bit RTP timestamp of frame `index`.
    public mutating func timestamp(index: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: ticks(index: index))
    }

    /// Frames after the last one given are spaced at the new rate.
    public mutating func setFrameRate(_ rate: Double) {
        precondition(rate > 0, "frame rate must be positive")
        baseTicks = ticks(index: lastIndex)
        baseIndex = lastIndex
        frameRate = rate
    }
}
