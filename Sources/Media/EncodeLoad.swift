import Foundation
import RTCBase

/// What frame rate an encoder can sustain, from encode durations its caller measured.
///
/// `Media` reads no clock: the runtime times each `encode` call on its encoder thread and
/// records it here. A 3840x2160 stream cannot be encoded at 30 fps on 2 cores; a run
/// that asks for more than `sustainableFrameRate` says so (`shortfall`) instead of
/// silently dropping frames.
public struct EncodeLoad: Hashable, Sendable {
    /// How many recent frames the figures cover.
    public let window: Int
    private var durations: [Duration] = []
    private var next = 0

    public init(window: Int = 30) {
        precondition(window > 0, "window must hold at least one frame")
        self.window = window
    }

    /// Records how long one `encode` call took.
    public mutating func record(_ duration: Duration) {
        if durations.count < window {
            durations.append(duration)
        } else {
            durations[next] = duration
        }
        next = (next + 1) % window
    }

    /// Mean encode time per frame over the window, in milliseconds.
    public var meanMilliseconds: Double? {
        guard !durations.isEmpty else { return nil }
        return durations.reduce(0.0) { $0 + $1.milliseconds } / Double(durations.count)
    }

    /// Frames per second one encoder thread keeps up with: 1000 / mean milliseconds.
    public var sustainableFrameRate: Double? {
        meanMilliseconds.map { $0 > 0 ? 1000 / $0 : .infinity }
    }

    /// A message when `requested` fps is more than the encoder sustains, else nil.
    public func shortfall(requested: Double) -> String? {
        guard let sustainable = sustainableFrameRate, let mean = meanMilliseconds, sustainable < requested else {
            return nil
        }
        return String(format: "encoder sustains %.1f fps (%.1f ms per frame), %.1f fps requested",
                      sustainable, mean, requested)
    }
}
