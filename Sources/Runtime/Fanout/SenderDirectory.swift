import RTCBase

/// The streams this worker sends, by SSRC, so that a receiver in the same worker can turn
/// an RTP timestamp back into the frame's capture time: end-to-end latency measured
/// exactly on one clock (METRICS.md). Receivers of streams sent elsewhere (another
/// worker, or rewritten by an SFU) find nothing here and report no latency.
final class SenderDirectory {
    private var senders: [UInt32: (offset: UInt32, encoder: SharedEncoder)] = [:]

    func register(ssrc: UInt32, timestampOffset: UInt32, encoder: SharedEncoder) {
        senders[ssrc] = (timestampOffset, encoder)
    }

    func unregister(ssrc: UInt32) { senders[ssrc] = nil }

    /// When the frame with this RTP timestamp from this SSRC was captured, if known.
    func captureTime(ssrc: UInt32, rtpTimestamp: UInt32) -> Instant? {
        guard let sender = senders[ssrc] else { return nil }
        return sender.encoder.captureTime(mediaTimestamp: rtpTimestamp &- sender.offset)
    }
}
