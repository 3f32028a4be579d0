/// Unsigned LEB128, as AV1 writes `obu_size` (AV1 bitstream spec 4.10.5) and the AV1 RTP
/// payload format its OBU element lengths (section 4.3): seven bits a byte, least
/// significant group first, the top bit set on every byte but the last. At most 8 bytes
/// and a value below 2^32.
public enum Leb128 {
    /// The most bytes a value may take (AV1 4.10.5).
    public static let maximumBytes = 8

    /// The minimal encoding of `value`.
    public static func encode(_ value: Int) -> [UInt8] {
        var rest = UInt64(value)
        var bytes: [UInt8] = []
        repeat {
            let group = UInt8(rest & 0x7F)
            rest >>= 7
            bytes.append(rest == 0 ? group : group | 0x80)
        } while rest != 0
        return bytes
    }

    /// `value` in exactly `count` bytes (continuation bits on the padding), so a size can
    /// be written before it is known and patched in place later. `value` must fit.
    public static func encode(_ value: Int, fixedSize count: Int) -> [UInt8] {
        precondition(count >= 1 && count <= maximumBytes && UInt64(value) < 1 << (7 * UInt64(count)), "\(value) does not fit \(count) LEB128 bytes")
        return (0..<count).map { index in
            let group = UInt8(UInt64(value) >> (7 * UInt64(index)) & 0x7F)
            return index == count - 1 ? group : group | 0x80
        }
    }

    /// Bytes the minimal encoding of `value` takes.
    public static func size(of value: Int) -> Int {
        var count = 1
        while value >> (7 * count) > 0 { count += 1 }
        return count
    }
}

extension ByteReader {
    /// Reads one LEB128 value; throws when it runs past the input, past 8 bytes or past
    /// 2^32 - 1 (AV1 4.10.5).
    public mutating func readLeb128(_ what: StaticString = "leb128") throws(ParseError) -> Int {
        var value: UInt64 = 0
        for index in 0..<Leb128.maximumBytes {
            let byte = try readU8(what)
            value |= UInt64(byte & 0x7F) << (7 * UInt64(index))
            if byte & 0x80 == 0 {
                guard value <= UInt64(UInt32.max) else { throw ParseError(.tooLarge, "\(what): \(value) above 2^32 - 1") }
                return Int(value)
            }
        }
        throw .invalid("\(what): more than \(Leb128.maximumBytes) LEB128 bytes")
    }
}
