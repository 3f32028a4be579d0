/// Hexadecimal digits, for the text formats that carry bytes (percent-encoding, JSON
/// `\u` escapes, SDP fingerprints, chunked HTTP sizes).
public enum Hex {
    /// The value of one hex digit (either case), or nil.
    @inlinable
    public static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The digit for a nibble (0-15).
    @inlinable
    public static func digit(_ nibble: UInt8, uppercase: Bool = true) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) + nibble - 10
    }
}
