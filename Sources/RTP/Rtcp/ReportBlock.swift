import RTCBase

/// One reception report block of an SR or RR (RFC 3550 6.4.1), 24 bytes.
public struct ReportBlock: Equatable, Sendable {
    /// The source this block reports on.
    public var ssrc: UInt32
    /// Packets lost since the previous report, as a fraction of 256.
    public var fractionLost: UInt8
    /// Cumulative packets lost, a signed 24-bit value (clamped when written).
    public var cumulativeLost: Int32
    /// Cycles (high 16 bits) and highest sequence number received.
    public var extendedHighestSequence: UInt32
    /// Interarrival jitter in timestamp units (RFC 3550 6.4.1, A.8).
    public var jitter: UInt32
    /// Middle 32 bits of the NTP timestamp of the last SR received, or 0.
    public var lastSenderReport: UInt32
    /// Time since that SR arrived, in units of 1/65536 s, or 0.
    public var delaySinceLastSenderReport: UInt32

    public static let size = 24

    public init(
        ssrc: UInt32, fractionLost: UInt8 = 0, cumulativeLost: Int32 = 0, extendedHighestSequence: UInt32 = 0,
        jitter: UInt32 = 0, lastSenderReport: UInt32 = 0, delaySinceLastSenderReport: UInt32 = 0
    ) {
        self.ssrc = ssrc
        self.fractionLost = fractionLost
        self.cumulativeLost = cumulativeLost
        self.extendedHighestSequence = extendedHighestSequence
        self.jitter = jitter
        self.lastSenderReport = lastSenderReport
        self.delaySinceLastSenderReport = delaySinceLastSenderReport
    }

    init(from reader: inout ByteReader) throws(ParseError) {
        ssrc = try reader.readU32("report block")
        fractionLost = try reader.readU8("report block")
        let lost = try reader.readU24("report block")
        // Sign-extend the 24-bit two's complement value.
        cumulativeLost = Int32(bitPattern: lost << 8) >> 8
        extendedHighestSequence = try reader.readU32("report block")
        jitter = try reader.readU32("report block")
        lastSenderReport = try reader.readU32("report block")
        delaySinceLastSenderReport = try reader.readU32("report block")
    }

    func write(to writer: inout ByteWriter) {
        writer.writeU32(ssrc)
        writer.writeU8(fractionLost)
        let clamped = min(max(cumulativeLost, -0x80_0000), 0x7f_ffff)
        writer.writeU24(UInt32(bitPattern: clamped) & 0xff_ffff)
        writer.writeU32(extendedHighestSequence)
        writer.writeU32(jitter)
        writer.writeU32(lastSenderReport)
        writer.writeU32(delaySinceLastSenderReport)
    }

    /// Reads `count` blocks; a count the packet cannot hold is an error.
    static func readBlocks(_ count: Int, from reader: inout ByteReader) throws(ParseError) -> [ReportBlock] {
        guard reader.remaining >= count * size else { throw .truncated("\(count) report blocks") }
        var blocks: [ReportBlock] = []
        blocks.reserveCapacity(count)
        for _ in 0..<count { blocks.append(try ReportBlock(from: &reader)) }
        return blocks
    }
}
