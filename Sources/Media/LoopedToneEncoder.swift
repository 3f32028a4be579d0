import RTCBase

/// `AudioSource`'s tone (or silence) through libopus, encoded once per period and replayed.
///
/// The tone repeats every `AudioSource.markerFrequencies.count` frames, so encoding it
/// forever spends about 0.3 ms of CPU per 20 ms frame (1.5 % of a core, `Benchmarks
/// media`) on packets that are the same period after period. This encoder runs libopus
/// for `warmupPeriods` periods (its state and rate control settle), keeps the packets of
/// the next period, and from then on answers frame `i` with the kept packet of `i mod
/// period`. A receiver's decoder sees the period that followed the warm-up, again and
/// again: frame `i` still holds marker `i mod 16`, and its RTP timestamp is `i * 960`
/// (RFC 7587 4.1) like `OpusAudioEncoder`'s.
public final class LoopedToneEncoder {
    public static var period: Int { AudioSource.markerFrequencies.count }

    private let encoder: OpusAudioEncoder
    private let source: AudioSource
    private let silent: Bool
    private let warmupPeriods: Int
    /// The packets of the period after the warm-up, by `index mod period`.
    private var kept: [[UInt8]] = []
    /// Frames that went through libopus (for the tests: the rest were replayed).
    public private(set) var framesEncoded = 0

    /// `silent` encodes zero samples (a muted track) instead of the tone.
    public init(channels: Int = 1, bitrate: Int = 32_000, silent: Bool = false, warmupPeriods: Int = 3) throws(MediaError) {
        encoder = try OpusAudioEncoder(channels: channels, bitrate: bitrate)
        source = AudioSource(channels: channels)
        self.silent = silent
        self.warmupPeriods = max(0, warmupPeriods)
    }

    /// The packet of frame `index`; frames are asked for in order from 0.
    public func packet(index: Int, captureTime: Instant) throws(MediaError) -> EncodedFrame {
        let period = Self.period
        let timestamp = UInt32(truncatingIfNeeded: index &* AudioFrame.samplesPerChannel)
        if kept.count == period {
            return EncodedFrame(codec: .opus, bytes: kept[index % period], isKeyframe: true, width: 0, height: 0,
                                index: index, captureTime: captureTime, rtpTimestamp: timestamp)
        }
        let encoded = try encoder.encode(source.frame(index: index, captureTime: captureTime, muted: silent))
        framesEncoded += 1
        if index / period == warmupPeriods, index % period == kept.count { kept.append(encoded.bytes) }
        return encoded
    }
}
