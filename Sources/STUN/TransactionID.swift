import RTCBase

/// The 96-bit transaction ID of a STUN message (RFC 8489 5, 6.2.1).
///
/// Stored inline (no heap) so it can key the table of outstanding transactions.
public struct TransactionID: Hashable, Sendable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt32

    public init(high: UInt64, low: UInt32) {
        self.high = high
        self.low = low
    }

    /// A fresh ID from `generator`; RFC 8489 6.2.1 wants it uniformly random.
    public init<Generator: RandomNumberGenerator>(using generator: inout Generator) {
        self.init(high: generator.next(), low: UInt32(truncatingIfNeeded: generator.next()))
    }

    /// The ID from its 12 bytes; nil for any other length.
    public init?<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        guard bytes.count == 12 else { return nil }
        var high: UInt64 = 0
        var low: UInt32 = 0
        for (index, byte) in bytes.enumerated() {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt32(byte) }
        }
        self.init(high: high, low: low)
    }

    /// The 12 bytes in network order.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 12)
        write(to: &writer)
        return writer.bytes
    }

    func write(to writer: inout ByteWriter) {
        writer.writeU64(high)
        writer.writeU32(low)
    }

    public var description: String {
        bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }
}
