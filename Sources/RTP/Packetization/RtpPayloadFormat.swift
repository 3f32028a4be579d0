import RTCBase

/// One RTP payload produced by a packetizer; the sender adds the RTP header.
public struct RtpPayload: Equatable, Sendable {
    public var bytes: [UInt8]
    /// The RTP marker bit: set on the last packet of a video frame (RFC 3550 5.1).
    public var marker: Bool

    public init(bytes: [UInt8], marker: Bool) {
        self.bytes = bytes
        self.marker = marker
    }
}

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

/// What a receiver learns from one payload before the frame is complete.
public struct RtpPayloadInfo: Equatable, Sendable {
    /// True at the first packet of a frame, false inside one, nil when the payload
    /// format cannot tell (H.264: the frame starts after the previous frame's packets).
    public var isFrameStart: Bool?
    /// True at the last packet of a frame when the format says so (VP9 E bit); nil
    /// leaves it to the RTP marker.
    public var isFrameEnd: Bool?
    /// The packet belongs to a frame that decodes on its own.
    public var isKeyframe: Bool

    public init(isFrameStart: Bool?, isFrameEnd: Bool? = nil, isKeyframe: Bool) {
        self.isFrameStart = isFrameStart
        self.isFrameEnd = isFrameEnd
        self.isKeyframe = isKeyframe
    }
}

/// Reads RTP payloads of one format back into encoded frames (used by `FrameAssembler`).
///
/// Payloads come as a `ByteReader` over the received packet's array
/// (`ByteReader(packet.bytes, range: packet.payloadRange)`), so nothing is copied.
public protocol RtpDepacketizer: Sendable {
    /// Parses the payload descriptor; throws on malformed input.
    func inspect(_ payload: ByteReader) throws(ParseError) -> RtpPayloadInfo
    /// Appends the codec bytes this payload carries to `frame` (payloads of one frame
    /// are appended in sequence order).
    func append(_ payload: ByteReader, to frame: inout [UInt8]) throws(ParseError)
}
