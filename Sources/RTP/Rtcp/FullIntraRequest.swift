import RTCBase

/// Full intra request, payload-specific feedback FMT 4 (RFC 5104 4.3.1).
///
/// The media source SSRC of the common header is unused (zero); each FCI entry names a
/// media sender and a command sequence number that is incremented for each new request.
public struct FullIntraRequest: Equatable, Sendable {
    /// One FCI entry: SSRC (32), sequence number (8), reserved (24).
    public struct Entry: Equatable, Sendable {
        public var ssrc: UInt32
        public var sequenceNumber: UInt8
        public init(ssrc: UInt32, sequenceNumber: UInt8) {
            self.ssrc = ssrc
            self.sequenceNumber = sequenceNumber
        }
    }

    public static let format: UInt8 = 4

    public var senderSsrc: UInt32
    public var entries: [Entry]

    public init(senderSsrc: UInt32, entries: [Entry]) {
        self.senderSsrc = senderSsrc
        self.entries = entries
    }

    /// Reads the body that follows `header` (FMT 4 of PT 206).
    public init(header: RtcpHeader, body reader: inout ByteReader) throws(ParseError) {
        senderSsrc = try reader.readU32("FIR sender SSRC")
        _ = try reader.readU32("FIR media SSRC")
        entries = []
        while reader.remaining >= 8 {
            let ssrc = try reader.readU32("FIR entry")
            let sequence = try reader.readU8("FIR entry")
            try reader.skip(3, "FIR entry")
            entries.append(Entry(ssrc: ssrc, sequenceNumber: sequence))
        }
        guard !entries.isEmpty else { throw .invalid("FIR without FCI") }
    }

    /// Appends the packet to `writer` (padded to 32 bits, length field filled in).
    public func write(to writer: inout ByteWriter) {
        let start = RtcpHeader.begin(count: Self.format, packetType: RtcpHeader.payloadFeedback, to: &writer)
        writer.writeU32(senderSsrc)
        writer.writeU32(0)
        for entry in entries {
            writer.writeU32(entry.ssrc)
            writer.writeU8(entry.sequenceNumber)
            writer.writeZeros(3)
        }
        RtcpHeader.finish(at: start, to: &writer)
    }
}
