/// Packetizes Opus (RFC 7587 4.2): one Opus packet per RTP payload, never split. The
/// marker stays clear: in audio it flags the first packet after silence (DTX), which a
/// continuous source never sends. An Opus packet is at most 1275 bytes per frame and
/// goes whole even above `maxPayloadSize`.
public struct OpusPacketizer: RtpPacketizer, Sendable {
    public init() {}

    public mutating func packetize(_ frame: [UInt8], isKeyframe: Bool, maxPayloadSize: Int) -> [RtpPayload] {
        [RtpPayload(bytes: frame, marker: false)]
    }
}
