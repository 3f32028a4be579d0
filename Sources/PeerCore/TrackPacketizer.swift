import RTP

/// One encoded frame cut into RTP payloads once for every stream that sends it: the
/// payload arrays are shared, each peer adds its own header and SRTP, and each peer's
/// retransmission cache holds references to them, not copies.
public struct PacketizedFrame: Sendable {
    public let frame: EncodedMediaFrame
    public let payloads: [RtpPayload]
    /// The payload budget they were cut for; a peer with another budget cuts its own.
    public let maxPayloadSize: Int
}

/// Packetizes one track's frames for all the peers that send it (encode once, packetize
/// once, send many). VP8 and VP9 picture IDs then count per track rather than per stream,
/// which receivers accept: each stream still sees them rise by one per frame, from a
/// start the sender chooses (RFC 7741 4.2, RFC 9628 4.2).
public final class TrackPacketizer {
    private var packetizer: CodecPacketizer
    public let maxPayloadSize: Int

    /// `mtu` as in `PeerConfiguration` (the payload budget before header and SRTP overhead).
    public init(codec: Codec, pictureId: UInt16, mtu: Int = PeerConfiguration.defaultMtu) {
        packetizer = CodecPacketizer(codec: codec, pictureId: pictureId & 0x7fff)
        maxPayloadSize = mtu - Peer.packetOverhead
    }

    public func packetize(_ frame: EncodedMediaFrame) -> PacketizedFrame {
        PacketizedFrame(frame: frame, payloads: packetizer.packetize(frame, maxPayloadSize: maxPayloadSize), maxPayloadSize: maxPayloadSize)
    }
}
