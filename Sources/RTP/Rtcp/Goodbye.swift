import RTCBase

/// RTCP goodbye, BYE, packet type 203 (RFC 3550 6.6).
public struct Goodbye: Equatable, Sendable {
    /// The sources leaving.
    public var ssrcs: [UInt32]
    /// Optional reason for leaving.
    public var reason: String?

    public init(ssrcs: [UInt32], reason: String? = nil) {
        self.ssrcs = ssrcs
        self.reason = reason
    }

    /// Reads the body that follows `header`.
    public init(header: RtcpHeader, body reader: inout ByteReader) throws(ParseError) {
        ssrcs = []
        for _ in 0..<header.count { ssrcs.append(try reader.readU32("BYE SSRC")) }
        if reader.isAtEnd {
            reason = nil
        } else {
            let length = Int(try reader.readU8("BYE reason length"))
            reason = String(decoding: try reader.readSlice(length, "BYE reason"), as: UTF8.self)
        }
    }

    /// Appends the packet to `writer` (padded to 32 bits, length field filled in).
    public func write(to writer: inout ByteWriter) {
        let written = ssrcs.prefix(31)
        let start = RtcpHeader.begin(count: UInt8(written.count), packetType: RtcpHeader.goodbye, to: &writer)
        for ssrc in written { writer.writeU32(ssrc) }
        if let reason {
            let text = Array(reason.utf8.prefix(255))
            writer.writeU8(UInt8(text.count))
            writer.write(text)
        }
        RtcpHeader.finish(at: start, to: &writer)
    }
}
