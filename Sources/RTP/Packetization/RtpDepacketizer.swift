import RTCBase

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
