import COpus

/// Opus decoding through libopus at 48 kHz. A corrupted packet is a `MediaError`; a lost
/// one is concealed (packet loss concealment) with `decodeLost()`.
public final class OpusAudioDecoder {
    public let channels: Int
    private let decoder: OpaquePointer
    /// Room for the longest Opus packet: 120 ms.
    private static let maximumSamples = 5760

    /// A decoder producing `channels` interleaved channels at 48 kHz.
    public init(channels: Int = 1) throws(MediaError) {
        guard channels == 1 || channels == 2 else { throw MediaError(.configuration, "opus: 1 or 2 channels") }
        var status: Int32 = 0
        guard let decoder = opus_decoder_create(48_000, Int32(channels), &status), status == OPUS_OK else {
            throw MediaError(.configuration, "opus_decoder_create: \(String(cString: opus_strerror(status)))")
        }
        self.decoder = decoder
        self.channels = channels
    }

    deinit { opus_decoder_destroy(decoder) }

    /// The interleaved PCM of one packet (960 samples per channel for 20 ms packets).
    public func decode(_ packet: [UInt8]) throws(MediaError) -> [Int16] {
        guard !packet.isEmpty else { throw MediaError(.corruptInput, "opus: empty packet") }
        return try run(packet)
    }

    /// 20 ms of concealment for a packet that never arrived.
    public func decodeLost() throws(MediaError) -> [Int16] { try run(nil) }

    private func run(_ packet: [UInt8]?) throws(MediaError) -> [Int16] {
        var pcm = [Int16](repeating: 0, count: Self.maximumSamples * channels)
        let frameSize = packet == nil ? Int32(AudioFrame.samplesPerChannel) : Int32(Self.maximumSamples)
        let decoded = pcm.withUnsafeMutableBufferPointer { pcm in
            if let packet {
                return packet.withUnsafeBufferPointer { data in
                    opus_decode(decoder, data.baseAddress, Int32(data.count), pcm.baseAddress!, frameSize, 0)
                }
            }
            return opus_decode(decoder, nil, 0, pcm.baseAddress!, frameSize, 0)
        }
        guard decoded > 0 else {
            throw MediaError(.corruptInput, "opus_decode: \(String(cString: opus_strerror(decoded)))")
        }
        pcm.removeSubrange((Int(decoded) * channels)...)
        return pcm
    }
}
