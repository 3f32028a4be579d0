import RTCBase
import RTP

/// How a video encoder is set up. `Sendable`, so a runtime can hand it to an encoder
/// thread and build the encoder there with `makeEncoder()`.
public struct VideoEncoderConfig: Hashable, Sendable {
    public var codec: Codec
    /// Target bitrate in bits per second.
    public var bitrate: Int
    public var frameRate: Double
    /// Frames from one keyframe to the next (unless one is requested earlier).
    public var keyframeInterval: Int
    /// Encoder threads inside the codec library (1 = the calling thread only).
    public var threads: Int

    public init(codec: Codec, bitrate: Int, frameRate: Double = 30, keyframeInterval: Int = defaultKeyframeInterval, threads: Int = 1) {
        self.codec = codec
        self.bitrate = bitrate
        self.frameRate = frameRate
        self.keyframeInterval = keyframeInterval
        self.threads = threads
    }

    /// Throws unless `encoder` (its name, for the message), which encodes `codecs`, can take
    /// this configuration.
    func check(encoder: String, encodes codecs: [Codec]) throws(MediaError) {
        guard codecs.contains(codec) else {
            throw MediaError(.configuration, "\(encoder) encodes \(codecs.map(\.description).joined(separator: " or ")), not \(codec)")
        }
        guard bitrate > 0, frameRate > 0, keyframeInterval > 0 else {
            throw MediaError(.configuration, "bitrate, frame rate and keyframe interval must be positive")
        }
    }

    /// A new target bitrate (bits per second), which must be positive; what an encoder's
    /// `setBitrate` takes before handing it to its library.
    mutating func setBitrate(_ bitsPerSecond: Int) throws(MediaError) {
        guard bitsPerSecond > 0 else { throw MediaError(.configuration, "bitrate must be positive") }
        bitrate = bitsPerSecond
    }

    /// A new frame rate, which must be positive; what an encoder's `setFrameRate` takes.
    mutating func setFrameRate(_ framesPerSecond: Double) throws(MediaError) {
        guard framesPerSecond > 0 else { throw MediaError(.configuration, "frame rate must be positive") }
        frameRate = framesPerSecond
    }

    /// Frames between keyframes when the scenario does not say: 10 s at 30 fps.
    public static let defaultKeyframeInterval = 300

    /// The lowest bitrate offered: 100 kbit/s at any size (the block code still reads
    /// back on 99 % of frames there).
    public static let minimumBitrate = 100_000

    /// The default bitrate for a size, near what browsers pick at 30 fps: 0.1 bits per
    /// pixel, at least 400 kbit/s (720p30: 2.8 Mbit/s).
    public static func defaultBitrate(for resolution: Resolution, frameRate: Double = 30) -> Int {
        max(400_000, Int(Double(resolution.pixelCount) * frameRate * 0.1))
    }

    /// A config with the default bitrate for `resolution`.
    public static func defaults(codec: Codec, resolution: Resolution, frameRate: Double = 30) -> Self {
        Self(codec: codec, bitrate: defaultBitrate(for: resolution, frameRate: frameRate), frameRate: frameRate)
    }

    /// A new encoder for this config (VP8/VP9: libvpx, H.264: OpenH264, H.265: x265, AV1: libaom).
    public func makeEncoder() throws(MediaError) -> any VideoEncoder {
        switch codec {
        case .vp8, .vp9: return try VpxEncoder(config: self)
        case .h264: return try H264Encoder(config: self)
        case .h265: return try H265Encoder(config: self)
        case .av1: return try Av1Encoder(config: self)
        case .opus: throw MediaError(.configuration, "opus is not a video codec")
        }
    }
}
