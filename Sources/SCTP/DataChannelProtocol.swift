import RTCBase

/// The SCTP payload protocol identifiers of WebRTC data channels (RFC 8831 8, RFC 8832 8.1).
/// An empty message travels as one zero byte with an "empty" PPID (RFC 8831 6.6).
enum PayloadProtocol {
    static let dcep: UInt32 = 50
    static let string: UInt32 = 51
    static let binary: UInt32 = 53
    static let emptyString: UInt32 = 56
    static let emptyBinary: UInt32 = 57
}

/// A DCEP message (RFC 8832 5): DATA_CHANNEL_OPEN with the channel's type, priority,
/// reliability parameter, label and protocol, or DATA_CHANNEL_ACK.
enum DataChannelControl: Equatable, Sendable {
    case open(DataChannelOptions, priority: UInt16)
    case ack

    /// RFC 8831 6.4 / RFC 8832 5.1: "normal" priority, what browsers send.
    static let normalPriority: UInt16 = 256
    static let openType: UInt8 = 0x03
    static let ackType: UInt8 = 0x02

    static func parse(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> DataChannelControl {
        var reader = ByteReader(Array(bytes))
        switch try reader.readU8("DCEP message type") {
        case ackType: return .ack
        case openType:
            let type = try reader.readU8("channel type")
            let priority = try reader.readU16("priority")
            let parameter = try reader.readU32("reliability parameter")
            let labelLength = Int(try reader.readU16("label length"))
            let protocolLength = Int(try reader.readU16("protocol length"))
            let label = try reader.readSlice(labelLength, "label")
            let proto = try reader.readSlice(protocolLength, "protocol")
            let reliability: Reliability
            switch type & 0x7F {
            case 0x00: reliability = .reliable
            case 0x01: reliability = .maxRetransmits(parameter)
            case 0x02: reliability = .lifetime(.milliseconds(Int64(parameter)))
            default: throw ParseError(.invalidValue, "DCEP channel type 0x\(String(type, radix: 16))")
            }
            return .open(DataChannelOptions(label: String(decoding: label, as: UTF8.self), protocol: String(decoding: proto, as: UTF8.self),
                                            ordered: type & 0x80 == 0, reliability: reliability),
                         priority: priority)
        case let other: throw ParseError(.invalidValue, "DCEP message type 0x\(String(other, radix: 16))")
        }
    }

    func serialize() -> [UInt8] {
        guard case .open(let options, let priority) = self else { return [Self.ackType] }
        var writer = ByteWriter()
        writer.writeU8(Self.openType)
        let parameter: UInt32
        var type: UInt8
        switch options.reliability {
        case .reliable: (type, parameter) = (0x00, 0)
        case .maxRetransmits(let count): (type, parameter) = (0x01, count)
        case .lifetime(let lifetime): (type, parameter) = (0x02, UInt32(clamping: Int64(lifetime.milliseconds)))
        }
        if !options.ordered { type |= 0x80 }
        writer.writeU8(type)
        writer.writeU16(priority)
        writer.writeU32(parameter)
        let label = Array(options.label.utf8)
        let proto = Array(options.protocol.utf8)
        writer.writeU16(UInt16(clamping: label.count))
        writer.writeU16(UInt16(clamping: proto.count))
        writer.write(label.prefix(0xFFFF))
        writer.write(proto.prefix(0xFFFF))
        return writer.take()
    }
}

/// What a data channel is (RFC 8831 6.1, RFC 8832 5.1): its label and sub-protocol,
/// ordered or not, and its reliability; `negotiatedID` opens it without DCEP on that
/// stream, both sides having agreed on the id out of band (RFC 8831 6.5).
public struct DataChannelOptions: Hashable, Sendable {
    public var label: String
    public var `protocol`: String
    public var ordered: Bool
    public var reliability: Reliability
    public var negotiatedID: UInt16?

    public init(label: String, protocol: String = "", ordered: Bool = true, reliability: Reliability = .reliable,
                negotiatedID: UInt16? = nil) {
        self.label = label
        self.protocol = `protocol`
        self.ordered = ordered
        self.reliability = reliability
        self.negotiatedID = negotiatedID
    }
}
