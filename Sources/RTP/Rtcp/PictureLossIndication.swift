import RTCBase

/// Picture loss indication, payload-specific feedback FMT 1 (RFC 4585 6.3.1): asks the
/// media sender for a keyframe. No FCI.
public struct PictureLossIndication: Equatable, Sendable {
    public static let format: UInt8 = 1

    public var senderSsrc: UInt32
    public var mediaSsrc: UInt32

    public init(senderSsrc: UInt32, mediaSsrc: UInt32) {
        self.senderSsrc = senderSsrc
        self.mediaSsrc = mediaSsrc
    }

    /// Reads the body that follows `header` (FMT 1 of PT 206).
    public init(header: RtcpHeader, body reader: inout ByteReader) throws(ParseError) {
        senderSsrc = try reader.readU32("PLI sender SSRC")
        mediaSsrc = try reader.readU32("PLI media SSRC")
    }

    /// Appends the packet to `writer` (padded to 32 bits, length field filled in).
    public func write(to writer: inout ByteWriter) {
        let start = RtcpHeader.begin(count: Self.format, packetType: RtcpHeader.payloadFeedback, to: &writer)
        writer.writeU32(senderSsrc)
        writer.writeU32(mediaSsrc)
        RtcpHeader.finish(at: start, to: &writer)
    }
}
