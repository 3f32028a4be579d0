import RTCBase

/// Reads bit fields most significant bit first, as H.264 (ITU-T H.264 7.2) and the VP9
/// uncompressed header (VP9 bitstream spec 4.9) are written. Every read throws
/// `ParseError` when the bits run out.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var bitsLeft: Int { bytes.count * 8 - position }

    mutating func bit() throws(ParseError) -> UInt32 {
        guard position < bytes.count * 8 else { throw .truncated("bit field") }
        let value = bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1
        position += 1
        return UInt32(value)
    }

    /// `count` bits (at most 32) as an unsigned number.
    mutating func bits(_ count: Int) throws(ParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count { value = value << 1 | (try bit()) }
        return value
    }

    mutating func flag() throws(ParseError) -> Bool { try bit() == 1 }

    /// ue(v): unsigned exp-Golomb (H.264 9.1), up to 2^32 - 2.
    mutating func unsignedGolomb() throws(ParseError) -> UInt32 {
        var leadingZeros = 0
        while try bit() == 0 {
            leadingZeros += 1
            guard leadingZeros < 32 else { throw .invalid("exp-Golomb code longer than 32 bits") }
        }
        return (UInt32(1) << leadingZeros) - 1 + (try bits(leadingZeros))
    }

    /// uvlc(): AV1's variable-length unsigned code (AV1 bitstream spec 4.10.3), 32 leading
    /// zeros or more reading as 2^32 - 1.
    mutating func uvlc() throws(ParseError) -> UInt32 {
        var leadingZeros = 0
        while try bit() == 0 { leadingZeros += 1 }
        guard leadingZeros < 32 else { return UInt32.max }
        return (UInt32(1) << leadingZeros) - 1 + (try bits(leadingZeros))
    }

    /// se(v): signed exp-Golomb (H.264 9.1.1).
    mutating func signedGolomb() throws(ParseError) -> Int32 {
        let code = try unsignedGolomb()
        let magnitude = Int32(truncatingIfNeeded: (code + 1) / 2)
        return code % 2 == 1 ? magnitude : -magnitude
    }
}
