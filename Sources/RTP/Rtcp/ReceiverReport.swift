import RTCBase

/// RTCP receiver report, RR, packet type 201 (RFC 3550 6.4.2).
public struct ReceiverReport: Equatable, Sendable {
    /// The reporter.
    public var ssrc: UInt32
    /// Up to 31 reception report blocks.
    public var reports: [ReportBlock]

    public init(ssrc: UInt32, reports: [ReportBlock] = []) {
        self.ssrc = ssrc
        self.reports = reports
    }

    /// Reads the body that follows `header`.
    public init(header: RtcpHeader, body reader: inout ByteReader) throws(ParseError) {
        ssrc = try reader.readU32("RR SSRC")
        reports = try ReportBlock.readBlocks(Int(header.count), from: &reader)
    }

    /// Appends the packet to `writer` (padded to 32 bits, length field filled in).
    public func write(to writer: inout ByteWriter) {
        let blocks = reports.prefix(31)
        let start = RtcpHeader.begin(count: UInt8(blocks.count), packetType: RtcpHeader.receiverReport, to: &writer)
        writer.writeU32(ssrc)
        for block in blocks { block.write(to: &writer) }
        RtcpHeader.finish(at: start, to: &writer)
    }
}
