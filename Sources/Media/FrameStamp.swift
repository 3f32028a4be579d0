import RTCBase

/// A frame's index and exact capture time, as carried in the H.264 frame-identity SEI.
public struct FrameStamp: Hashable, Sendable, CustomStringConvertible {
    public var index: Int
    public var captureTime: Instant

    public init(index: Int, captureTime: Instant) {
        self.index = index
        self.captureTime = captureTime
    }

    public var description: String { "frame \(index) @\(captureTime)" }
}
