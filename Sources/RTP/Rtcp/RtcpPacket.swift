import RTCBase

/// One RTCP packet of any type rtcswarm understands (RFC 3550 6.4-6.6, RFC 4585 6.2-6.3,
/// RFC 5104 4.3.1, REMB, transport-wide CC); other types and formats are kept as
/// `.other` with their header so a caller can count them.
public enum RtcpPacket: Equatable, Sendable {
    case senderReport(SenderReport)
    case receiverReport(ReceiverReport)
    case sourceDescription(SourceDescription)
    case goodbye(Goodbye)
    case nack(GenericNack)
    case transportCc(TransportCcFeedback)
    case pictureLoss(PictureLossIndication)
    case fullIntraRequest(FullIntraRequest)
    case remb(ReceiverEstimatedMaxBitrate)
    case other(RtcpHeader)

    /// Parses the body of a packet whose header was read; `body` covers exactly the
    /// packet after its header, padding excluded.
    public init(header: RtcpHeader, body: inout ByteReader) throws(ParseError) {
        switch (header.packetType, header.count) {
        case (RtcpHeader.senderReport, _): self = .senderReport(try SenderReport(header: header, body: &body))
        case (RtcpHeader.receiverReport, _): self = .receiverReport(try ReceiverReport(header: header, body: &body))
        case (RtcpHeader.sourceDescription, _):
            self = .sourceDescription(try SourceDescription(header: header, body: &body))
        case (RtcpHeader.goodbye, _): self = .goodbye(try Goodbye(header: header, body: &body))
        case (RtcpHeader.transportFeedback, GenericNack.format):
            self = .nack(try GenericNack(header: header, body: &body))
        case (RtcpHeader.transportFeedback, TransportCcFeedback.format):
            self = .transportCc(try TransportCcFeedback(header: header, body: &body))
        case (RtcpHeader.payloadFeedback, PictureLossIndication.format):
            self = .pictureLoss(try PictureLossIndication(header: header, body: &body))
        case (RtcpHeader.payloadFeedback, FullIntraRequest.format):
            self = .fullIntraRequest(try FullIntraRequest(header: header, body: &body))
        case (RtcpHeader.payloadFeedback, ReceiverEstimatedMaxBitrate.format):
            self = .remb(try ReceiverEstimatedMaxBitrate(header: header, body: &body))
        default: self = .other(header)
        }
    }

    /// Appends the packet to `writer`; `.other` writes nothing.
    public func write(to writer: inout ByteWriter) {
        switch self {
        case .senderReport(let packet): packet.write(to: &writer)
        case .receiverReport(let packet): packet.write(to: &writer)
        case .sourceDescription(let packet): packet.write(to: &writer)
        case .goodbye(let packet): packet.write(to: &writer)
        case .nack(let packet): packet.write(to: &writer)
        case .transportCc(let packet): packet.write(to: &writer)
        case .pictureLoss(let packet): packet.write(to: &writer)
        case .fullIntraRequest(let packet): packet.write(to: &writer)
        case .remb(let packet): packet.write(to: &writer)
        case .other: break
        }
    }
}
