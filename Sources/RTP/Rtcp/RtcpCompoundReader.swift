import RTCBase

/// Iterates over the packets of a compound RTCP packet (RFC 3550 6.1), or of a
/// reduced-size one (RFC 5506 3.1: any packet may come first, one packet alone is fine).
///
///     var reader = RtcpCompoundReader(bytes)
///     while let packet = try reader.next() { ... }
///
/// A length that runs past the datagram or a malformed packet ends iteration with an
/// error; the packets before it were already returned.
public struct RtcpCompoundReader: Sendable {
    private var reader: ByteReader
    private var index = 0
    /// When true, the first packet must be an SR or RR as RFC 3550 6.1 demands (the
    /// validity check of A.2); when false, reduced-size RTCP (RFC 5506) is accepted.
    public let requiresReportFirst: Bool

    public init(_ bytes: [UInt8], requiresReportFirst: Bool = false) {
        self.reader = ByteReader(bytes)
        self.requiresReportFirst = requiresReportFirst
    }

    /// The next packet, or nil at the end of the datagram.
    public mutating func next() throws(ParseError) -> RtcpPacket? {
        guard !reader.isAtEnd else {
            guard index > 0 else { throw .truncated("empty RTCP datagram") }
            return nil
        }
        let header = try RtcpHeader(from: &reader)
        var packet = try reader.subReader(header.size - 4, "RTCP packet")
        if header.padding {
            // RFC 3550 6.4.1: only the last packet of a compound may be padded.
            guard reader.isAtEnd else { throw .invalid("RTCP padding before the last packet") }
            let count = Int(packet.bytes[packet.end - 1])
            guard count >= 1, count <= packet.remaining else { throw .invalid("RTCP padding count \(count)") }
            packet = ByteReader(packet.bytes, range: packet.offset..<packet.end - count)
        }
        if index == 0, requiresReportFirst,
            header.packetType != RtcpHeader.senderReport, header.packetType != RtcpHeader.receiverReport
        {
            throw .invalid("compound RTCP starting with packet type \(header.packetType)")
        }
        index += 1
        return try RtcpPacket(header: header, body: &packet)
    }

    /// All packets of `bytes`.
    public static func parse(_ bytes: [UInt8], requiresReportFirst: Bool = false) throws(ParseError) -> [RtcpPacket] {
        var reader = RtcpCompoundReader(bytes, requiresReportFirst: requiresReportFirst)
        var packets: [RtcpPacket] = []
        while let packet = try reader.next() { packets.append(packet) }
        return packets
    }
}
