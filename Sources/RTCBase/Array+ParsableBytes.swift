extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a parser: the standard library's form rethrows an untyped
    /// error, which a `throws(ParseError)` caller cannot pass on.
    @inlinable
    public func withParsableBytes<R>(_ body: (UnsafeRawBufferPointer) throws(ParseError) -> R) throws(ParseError) -> R {
        try withUnsafeBytes { bytes in Result { () throws(ParseError) in try body(bytes) } }.get()
    }
}
