/// CRC32c (Castagnoli, reflected polynomial 0x82F63B78), the SCTP checksum (RFC 9260 6.8,
/// appendix B): computed over the whole packet with the checksum field zero, and written
/// into the common header least significant byte first.
enum Crc32c {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        return crc
    }

    static func checksum<Bytes: Collection>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        ~update(0xFFFF_FFFF, bytes)
    }

    /// The checksum of a packet, its checksum field (bytes 8..<12) taken as zero.
    static func packetChecksum(_ packet: [UInt8]) -> UInt32 {
        guard packet.count >= 12 else { return checksum(packet) }
        return ~update(update(update(0xFFFF_FFFF, packet[0..<8]), [0, 0, 0, 0]), packet[12...])
    }

    private static func update<Bytes: Collection>(_ start: UInt32, _ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc = start
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc
    }
}

/// Writes the right CRC32c into a packet's checksum field (RFC 9260 6.8), for fuzzing and
/// tests that mutate packets and still want the chunk parsers to see them.
public enum SctpChecksum {
    public static func stamp(_ packet: inout [UInt8]) {
        guard packet.count >= SctpPacket.headerSize else { return }
        let crc = Crc32c.packetChecksum(packet)
        packet[8..<12] = [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)]
    }
}
