import RTCBase

/// A complete encoded frame put back together from its RTP packets.
public struct AssembledFrame: Equatable, Sendable {
    /// The RTP timestamp all its packets share.
    public var timestamp: UInt32
    /// The codec bytes (Annex-B for H.264).
    public var data: [UInt8]
    public var isKeyframe: Bool
    /// Extended sequence numbers of its first and last packets.
    public var firstSequence: Int64
    public var lastSequence: Int64
    /// Arrival of the first and of the last of its packets (the latter ends the
    /// frame for latency, METRICS.md).
    public var firstArrival: Instant
    public var lastArrival: Instant

    public var packetCount: Int { Int(lastSequence - firstSequence + 1) }
}
