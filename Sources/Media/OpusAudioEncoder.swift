import COpus
import RTCBase

/// Opus (RFC 6716) through libopus: 48 kHz, 20 ms frames, mono or stereo, VoIP mode with
/// in-band FEC off and a fixed target bitrate. RTP timestamps are `index * 960` (RFC 7587
/// 4.1: the clock is always 48 kHz).
public final class OpusAudioEncoder {
    public let channels: Int
    public private(set) var bitrate: Int
    private let encoder: OpaquePointer
    private var output = [UInt8](repeating: 0, count: 1500)

    /// `bitrate` in bits per second (libopus accepts 500 to 512000).
    public init(channels: Int = 1, bitrate: Int = 32_000) throws(MediaError) {
        guard channels == 1 || channels == 2 else { throw MediaError(.configuration, "opus: 1 or 2 channels") }
        var status: Int32 = 0
        guard let encoder = opus_encoder_create(48_000, Int32(channels), OPUS_APPLICATION_VOIP, &status),
              status == OPUS_OK
        else { throw MediaError(.configuration, "opus_encoder_create: \(String(cString: opus_strerror(status)))") }
        self.encoder = encoder
        self.channels = channels
        self.bitrate = bitrate
        try setBitrate(bitrate)
    }

    deinit { opus_encoder_destroy(encoder) }

    public func setBitrate(_ bitsPerSecond: Int) throws(MediaError) {
        let status = rs_opus_set_bitrate(encoder, Int32(clamping: bitsPerSecond))
        guard status == OPUS_OK else {
            throw MediaError(.configuration, "opus bitrate \(bitsPerSecond): \(String(cString: opus_strerror(status)))")
        }
        bitrate = bitsPerSecond
    }

    /// Encodes one 20 ms frame into one packet.
    public func encode(_ frame: AudioFrame) throws(MediaError) -> EncodedFrame {
        guard frame.channels == channels, frame.samples.count == AudioFrame.samplesPerChannel * channels else {
            throw MediaError(.invalidInput, "opus: expected \(AudioFrame.samplesPerChannel) samples x \(channels) channels")
        }
        let length = frame.samples.withUnsafeBufferPointer { pcm in
            output.withUnsafeMutableBufferPointer { packet in
                opus_encode(encoder, pcm.baseAddress!, Int32(AudioFrame.samplesPerChannel), packet.baseAddress!,
                            Int32(packet.count))
            }
        }
        guard length > 0 else {
            throw MediaError(.codecFailure, "opus_encode: \(String(cString: opus_strerror(length)))")
        }
        return EncodedFrame(codec: .opus, bytes: Array(output[0..<Int(length)]), isKeyframe: true, width: 0, height: 0,
                            index: frame.index, captureTime: frame.captureTime,
                            rtpTimestamp: UInt32(truncatingIfNeeded: frame.index &* AudioFrame.samplesPerChannel))
    }
}
