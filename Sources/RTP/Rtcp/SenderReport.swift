import RTCBase

/// RTCP sender report, SR, packet type 200 (RFC 3550 6.4.1).
public struct SenderReport: Equatable, Sendable {
    public var ssrc: UInt32
    /// 64-bit NTP timestamp (seconds since 1900 in the high 32 bits, fraction below).
    public var ntpTimestamp: UInt64
    /// The same instant in the stream's RTP timestamp units.
    public var rtpTimestamp: UInt32
    public var packetCount: UInt32
    /// Payload octets sent (headers and padding excluded).
    public var octetCount: UInt32
    /// Up to 31 reception report blocks.
    public var reports: [ReportBlock]

    public init(
        ssrc: UInt32, ntpTimestamp: UInt64, rtpTimestamp: UInt32, packetCount: UInt32, octetCount: UInt32,
        reports: [ReportBlock] = []
    ) {
        self.ssrc = ssrc
        self.ntpTimestamp = ntpTimestamp
        self.rtpTimestamp = rtpTimestamp
        self.packetCount = packetCount
        self.octetCount = octetCount
        self.reports = reports
    }

    /// Reads the body that follows `header`.
    public init(header: RtcpHeader, body reader: inout ByteReader) throws(ParseError) {
        ssrc = try reader.readU32("SR SSRC")
        ntpTimestamp = try reader.readU64("SR NTP timestamp")
        rtpTimestamp = try reader.readU32("SR RTP timestamp")
        packetCount = try reader.readU32("SR packet count")
        octetCount = try reader.readU32("SR octet count")
        reports = try ReportBlock.readBlocks(Int(header.count), from: &reader)
    }

    /// The middle 32 bits of the NTP timestamp, as receivers echo it in LSR (6.4.1).
    public var compactNtp: UInt32 { UInt32(truncatingIfNeeded: ntpTimestamp >> 16) }

    /// Appends the packet to `writer` (padded to 32 bits, length field filled in).
    public func write(to writer: inout ByteWriter) {
        let blocks = reports.prefix(31)
        let start = RtcpHeader.begin(count: UInt8(blocks.count), packetType: RtcpHeader.senderReport, to: &writer)
        writer.writeU32(ssrc)
        writer.writeU64(ntpTimestamp)
        writer.writeU32(rtpTimestamp)
        writer.writeU32(packetCount)
        writer.writeU32(octetCount)
        for block in blocks { block.write(to: &writer) }
        RtcpHeader.finish(at: start, to: &writer)
    }
}
