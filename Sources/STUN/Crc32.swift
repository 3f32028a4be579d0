/// CRC-32 as ISO 3309 / ITU-T V.42 define it (reflected polynomial 0xEDB88320, initial
/// value and final XOR all ones), which the STUN FINGERPRINT uses (RFC 8489 14.7).
enum Crc32 {
    /// One entry per byte value: the CRC of that byte alone, without the final XOR.
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    /// The CRC-32 of `bytes[range]`.
    static func checksum(_ bytes: [UInt8], _ range: Range<Int>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for index in range {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
            }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
