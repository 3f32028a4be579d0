import RTCBase

/// The 4-byte header every RTCP packet starts with (RFC 3550 6.4.1, RFC 4585 6.1).
///
///     V=2 (2) | P (1) | RC or FMT (5) | PT (8) | length in 32-bit words - 1 (16)
public struct RtcpHeader: Equatable, Sendable {
    /// Report count, source count or feedback message type (FMT), by packet type.
    public var count: UInt8
    public var packetType: UInt8
    /// Whether the P bit is set.
    public var padding: Bool
    /// The whole packet size in bytes, header and padding included.
    public var size: Int

    public static let senderReport: UInt8 = 200
    public static let receiverReport: UInt8 = 201
    public static let sourceDescription: UInt8 = 202
    public static let goodbye: UInt8 = 203
    /// Transport-layer feedback (RFC 4585 6.2): generic NACK, transport-wide CC.
    public static let transportFeedback: UInt8 = 205
    /// Payload-specific feedback (RFC 4585 6.3): PLI, FIR, REMB.
    public static let payloadFeedback: UInt8 = 206

    public init(count: UInt8, packetType: UInt8, padding: Bool = false, size: Int) {
        self.count = count
        self.packetType = packetType
        self.padding = padding
        self.size = size
    }

    /// Reads a header; the packet it announces must fit in the reader.
    public init(from reader: inout ByteReader) throws(ParseError) {
        let first = try reader.readU8("RTCP header")
        guard first >> 6 == 2 else { throw .invalid("RTCP version \(first >> 6)") }
        padding = first & 0x20 != 0
        count = first & 0x1f
        packetType = try reader.readU8("RTCP header")
        size = (Int(try reader.readU16("RTCP length")) + 1) * 4
        guard reader.remaining >= size - 4 else { throw .truncated("RTCP packet of \(size) bytes") }
    }

    /// Writes a header with a zero length and returns where it starts, for `finish`.
    static func begin(count: UInt8, packetType: UInt8, to writer: inout ByteWriter) -> Int {
        let start = writer.count
        writer.writeU8(0x80 | (count & 0x1f))
        writer.writeU8(packetType)
        writer.writeU16(0)
        return start
    }

    /// Pads the packet begun at `start` to a 32-bit boundary with zeros and fills in its
    /// length field.
    static func finish(at start: Int, to writer: inout ByteWriter) {
        let unpadded = writer.count - start
        writer.writeZeros((4 - unpadded % 4) % 4)
        writer.patchU16(UInt16((writer.count - start) / 4 - 1), at: start + 2)
    }
}
