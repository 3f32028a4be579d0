import RTCBase

/// An SCTP packet (RFC 9260 3.1): the common header and its chunks. Over DTLS (RFC 8261)
/// there are no IP addresses; both ports are 5000 in WebRTC (RFC 8841 5).
struct SctpPacket: Equatable, Sendable {
    var sourcePort: UInt16
    var destinationPort: UInt16
    var verificationTag: UInt32
    var chunks: [SctpChunk]

    static let headerSize = 12

    /// Parses and checks the CRC32c (RFC 9260 6.8). A chunk type with both high bits clear
    /// that is not known ends the packet there (RFC 9260 3.2); others are kept as `.unknown`.
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> SctpPacket {
        var reader = ByteReader(bytes)
        let sourcePort = try reader.readU16("source port")
        let destinationPort = try reader.readU16("destination port")
        let tag = try reader.readU32("verification tag")
        let sent = try reader.readU32("checksum").byteSwapped
        guard Crc32c.packetChecksum(bytes) == sent else { throw ParseError(.integrity, "SCTP CRC32c mismatch") }
        var chunks: [SctpChunk] = []
        while reader.remaining >= 4 {
            let type = try reader.readU8("chunk type")
            let flags = try reader.readU8("chunk flags")
            let length = Int(try reader.readU16("chunk length"))
            guard length >= 4 else { throw ParseError(.invalidValue, "SCTP chunk length \(length) < 4") }
            var value = try reader.subReader(length - 4, "chunk value")
            try reader.skip(min((4 - length % 4) % 4, reader.remaining), "chunk padding")
            let chunk = try SctpChunk.parse(type: type, flags: flags, value: &value)
            chunks.append(chunk)
            if case .unknown(let type) = chunk, type & 0x80 == 0 { break }
        }
        guard !chunks.isEmpty else { throw ParseError(.truncated, "SCTP packet without chunks") }
        return SctpPacket(sourcePort: sourcePort, destinationPort: destinationPort, verificationTag: tag, chunks: chunks)
    }

    func serialize() -> [UInt8] {
        var writer = ByteWriter(capacity: 1200)
        writer.writeU16(sourcePort)
        writer.writeU16(destinationPort)
        writer.writeU32(verificationTag)
        writer.writeU32(0)
        for chunk in chunks { chunk.write(to: &writer) }
        writer.patchU32(Crc32c.packetChecksum(writer.bytes).byteSwapped, at: 8)
        return writer.take()
    }
}
