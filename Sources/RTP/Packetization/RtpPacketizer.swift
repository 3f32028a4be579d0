/// Splits encoded frames into RTP payloads (one conformer per codec payload format).
///
/// Packetizing happens once per encoded frame and the payloads are shared by every
/// publisher of that encoding (encode once, send many), so the per-frame arrays are
/// not a per-peer cost.
public protocol RtpPacketizer {
    /// The payloads for one encoded frame, none larger than `maxPayloadSize` bytes
    /// (the MTU minus RTP, extension and SRTP overhead), marker on the last.
    mutating func packetize(_ frame: [UInt8], isKeyframe: Bool, maxPayloadSize: Int) -> [RtpPayload]
}
