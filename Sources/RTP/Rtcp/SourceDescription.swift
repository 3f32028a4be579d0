import RTCBase

/// RTCP source description, SDES, packet type 202 (RFC 3550 6.5); only CNAME items
/// (6.5.1) are kept, other items are skipped.
public struct SourceDescription: Equatable, Sendable {
    /// One SSRC and its canonical name.
    public struct Chunk: Equatable, Sendable {
        public var ssrc: UInt32
        public var cname: String?
        public init(ssrc: UInt32, cname: String?) {
            self.ssrc = ssrc
            self.cname = cname
        }
    }

    public static let cnameItem: UInt8 = 1

    public var chunks: [Chunk]

    public init(chunks: [Chunk]) { self.chunks = chunks }

    /// Reads the body that follows `header`: SC chunks, each a list of items ended by a
    /// zero byte and padded to a 32-bit boundary.
    public init(header: RtcpHeader, body reader: inout ByteReader) throws(ParseError) {
        let bodyStart = reader.offset
        chunks = []
        for _ in 0..<header.count {
            let ssrc = try reader.readU32("SDES chunk SSRC")
            var cname: String?
            while true {
                let type = try reader.readU8("SDES item type")
                if type == 0 {
                    let used = reader.offset - bodyStart
                    try reader.skip((4 - used % 4) % 4, "SDES chunk padding")
                    break
                }
                let length = Int(try reader.readU8("SDES item length"))
                let value = try reader.readSlice(length, "SDES item")
                if type == Self.cnameItem { cname = String(decoding: value, as: UTF8.self) }
            }
            chunks.append(Chunk(ssrc: ssrc, cname: cname))
        }
    }

    /// Appends the packet to `writer` (padded to 32 bits, length field filled in).
    public func write(to writer: inout ByteWriter) {
        let written = chunks.prefix(31)
        let start = RtcpHeader.begin(
            count: UInt8(written.count), packetType: RtcpHeader.sourceDescription, to: &writer)
        for chunk in written {
            writer.writeU32(chunk.ssrc)
            if let cname = chunk.cname {
                let text = Array(cname.utf8.prefix(255))
                writer.writeU8(Self.cnameItem)
                writer.writeU8(UInt8(text.count))
                writer.write(text)
            }
            // The item list ends with a zero byte, then zeros to the next 32-bit boundary.
            writer.writeU8(0)
            writer.writeZeros((4 - (writer.count - start) % 4) % 4)
        }
        RtcpHeader.finish(at: start, to: &writer)
    }
}
