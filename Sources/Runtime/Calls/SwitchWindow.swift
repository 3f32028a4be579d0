import RTCBase

/// What a receiver saw around one resolution switch: from the action until a second after
/// the first frame of the new size (`SwitchWindow.after`), the longest gap between frames
/// and the frames the RTP timestamps say were sent but never arrived (docs/metrics.md,
/// `switch_freeze_ms`, `switch_frames_lost`).
struct SwitchWindow {
    /// How long after the first frame of the new size the window stays open.
    static let after = Duration.seconds(1)

    /// When the action was planned.
    private let from: Instant
    /// The timestamp the count of sent frames starts from: the last frame before the
    /// window, or its first one.
    private var baseTimestamp: UInt32?
    private var lastTimestamp: UInt32?
    private var frames = 0
    private(set) var longestGap = Duration.zero

    init(from: Instant) { self.from = from }

    /// A frame with `timestamp` arrived at `arrival`; the one before it, at `previous` with
    /// `previousTimestamp` (nil: this is the stream's first).
    mutating func add(timestamp: UInt32, arrival: Instant, previous: Instant?, previousTimestamp: UInt32?) {
        if baseTimestamp == nil {
            baseTimestamp = previousTimestamp ?? timestamp
            if previousTimestamp == nil { frames -= 1 }  // the base frame itself is not a frame after it
        }
        frames += 1
        lastTimestamp = timestamp
        if let previous { longestGap = max(longestGap, arrival - max(previous, from)) }
    }

    /// Frames sent in the window (by RTP timestamp, `ticksPerFrame` apart) that never arrived.
    func framesLost(ticksPerFrame: Double) -> Int {
        guard let base = baseTimestamp, let last = lastTimestamp, ticksPerFrame > 0 else { return 0 }
        return max(0, Int((Double(last &- base) / ticksPerFrame).rounded()) - frames)
    }
}
