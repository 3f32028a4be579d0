import RTCBase

/// 20 ms of 48 kHz 16-bit PCM, interleaved when stereo, with its identity.
public struct AudioFrame: Hashable, Sendable {
    public static let sampleRate = 48_000
    /// Samples per channel in one frame: 20 ms at 48 kHz (the Opus frame WebRTC sends).
    public static let samplesPerChannel = 960

    /// `samplesPerChannel * channels` samples, channel-interleaved.
    public var samples: [Int16]
    /// 1 or 2.
    public var channels: Int
    public var index: Int
    public var captureTime: Instant

    public init(samples: [Int16], channels: Int, index: Int, captureTime: Instant) {
        self.samples = samples
        self.channels = channels
        self.index = index
        self.captureTime = captureTime
    }
}
