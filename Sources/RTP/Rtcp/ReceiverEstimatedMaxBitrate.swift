import RTCBase

/// Receiver estimated maximum bitrate, REMB: payload-specific feedback FMT 15 with the
/// "REMB" identifier (draft-alvestrand-rmcat-remb-03 2.2).
///
/// The bitrate is a 6-bit exponent and an 18-bit mantissa: bps = mantissa << exp.
public struct ReceiverEstimatedMaxBitrate: Equatable, Sendable {
    public static let format: UInt8 = 15
    static let identifier: UInt32 = 0x5245_4D42  // "REMB"

    public var senderSsrc: UInt32
    /// Bits per second (values above 2^18 lose low bits when written).
    public var bitrate: UInt64
    /// The streams the estimate applies to.
    public var ssrcs: [UInt32]

    public init(senderSsrc: UInt32, bitrate: UInt64, ssrcs: [UInt32]) {
        self.senderSsrc = senderSsrc
        self.bitrate = bitrate
        self.ssrcs = ssrcs
    }

    /// Reads the body that follows `header` (FMT 15 of PT 206); throws if the
    /// application-layer feedback is not REMB.
    public init(header: RtcpHeader, body reader: inout ByteReader) throws(ParseError) {
        senderSsrc = try reader.readU32("REMB sender SSRC")
        _ = try reader.readU32("REMB media SSRC")
        guard try reader.readU32("REMB identifier") == Self.identifier else {
            throw ParseError(.unsupported, "application-layer feedback other than REMB")
        }
        let count = Int(try reader.readU8("REMB SSRC count"))
        let packed = try reader.readU24("REMB bitrate")
        bitrate = UInt64(packed & 0x3_ffff) << (packed >> 18)
        ssrcs = []
        for _ in 0..<count { ssrcs.append(try reader.readU32("REMB SSRC")) }
    }

    /// Appends the packet to `writer` (padded to 32 bits, length field filled in).
    public func write(to writer: inout ByteWriter) {
        let start = RtcpHeader.begin(count: Self.format, packetType: RtcpHeader.payloadFeedback, to: &writer)
        writer.writeU32(senderSsrc)
        writer.writeU32(0)
        writer.writeU32(Self.identifier)
        let written = ssrcs.prefix(255)
        writer.writeU8(UInt8(written.count))
        var exponent: UInt32 = 0
        var mantissa = bitrate
        while mantissa > 0x3_ffff, exponent < 63 {
            mantissa >>= 1
            exponent += 1
        }
        writer.writeU24(exponent << 18 | UInt32(truncatingIfNeeded: mantissa))
        for ssrc in written { writer.writeU32(ssrc) }
        RtcpHeader.finish(at: start, to: &writer)
    }
}
