/// Reads big-endian (network order) fields from a byte array without copying it.
///
/// Arrays are copy-on-write, so a reader shares the caller's storage; `slice(_:)` returns
/// views into it. Every read checks bounds and throws `ParseError.truncated` instead of
/// trapping, which is what lets parsers take arbitrary network input.
public struct ByteReader: Sendable {
    public let bytes: [UInt8]
    /// Index of the next byte to read.
    public var offset: Int
    /// One past the last readable index.
    public let end: Int

    @inlinable
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
        self.end = bytes.count
    }

    /// A reader over `range` of `bytes` (clamped to the array).
    @inlinable
    public init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.offset = max(0, min(range.lowerBound, bytes.count))
        self.end = max(self.offset, min(range.upperBound, bytes.count))
    }

    @inlinable public var remaining: Int { end - offset }
    @inlinable public var isAtEnd: Bool { offset >= end }

    @inlinable
    mutating func require(_ count: Int, _ what: StaticString) throws(ParseError) {
        if count < 0 || remaining < count {
            throw ParseError(.truncated, "\(what): needs \(count) bytes, \(remaining) left")
        }
    }

    @inlinable
    public mutating func readU8(_ what: StaticString = "u8") throws(ParseError) -> UInt8 {
        try require(1, what)
        defer { offset += 1 }
        return bytes[offset]
    }

    @inlinable
    public mutating func readU16(_ what: StaticString = "u16") throws(ParseError) -> UInt16 {
        try require(2, what)
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    @inlinable
    public mutating func readU24(_ what: StaticString = "u24") throws(ParseError) -> UInt32 {
        try require(3, what)
        defer { offset += 3 }
        return UInt32(bytes[offset]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2])
    }

    @inlinable
    public mutating func readU32(_ what: StaticString = "u32") throws(ParseError) -> UInt32 {
        try require(4, what)
        defer { offset += 4 }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    @inlinable
    public mutating func readU64(_ what: StaticString = "u64") throws(ParseError) -> UInt64 {
        let high = try readU32(what)
        let low = try readU32(what)
        return UInt64(high) << 32 | UInt64(low)
    }

    /// The next `count` bytes as a view into the underlying array.
    @inlinable
    public mutating func readSlice(_ count: Int, _ what: StaticString = "bytes") throws(ParseError) -> ArraySlice<UInt8> {
        try require(count, what)
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// Everything that is left.
    @inlinable
    public mutating func readRest() -> ArraySlice<UInt8> {
        defer { offset = end }
        return bytes[offset..<end]
    }

    @inlinable
    public mutating func skip(_ count: Int, _ what: StaticString = "skip") throws(ParseError) {
        try require(count, what)
        offset += count
    }

    /// The byte at `offset + ahead` without consuming anything.
    @inlinable
    public func peekU8(ahead: Int = 0) throws(ParseError) -> UInt8 {
        let index = offset + ahead
        guard ahead >= 0, index < end else { throw peekPastEnd() }
        return bytes[index]
    }

    /// The error of `peekU8`, out of line so that the peek itself is inlined where it is
    /// used (with the message built in place it was a call per peek).
    @usableFromInline
    func peekPastEnd() -> ParseError { ParseError(.truncated, "peek: \(remaining) bytes left") }

    /// A reader over the next `count` bytes; this reader moves past them.
    @inlinable
    public mutating func subReader(_ count: Int, _ what: StaticString = "section") throws(ParseError) -> ByteReader {
        try require(count, what)
        defer { offset += count }
        return ByteReader(bytes, range: offset..<offset + count)
    }
}
