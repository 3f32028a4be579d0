import RTCBase

/// H.265 over RTP (RFC 7798) without DONL fields (`sprop-max-don-diff` 0, what SRS and
/// browsers use): the 2-byte NAL unit header (F, type, LayerId, TID; 1.1.4), aggregation
/// packets (type 48, 4.4.2) and fragmentation units (type 49, 4.4.3). PACI (type 50) is
/// not used.
public enum H265PayloadFormat: NalPayloadFormat {
    static let aggregationPacket: UInt8 = 48
    static let fragmentationUnit: UInt8 = 49
    static let videoParameterSet: UInt8 = 32
    static let sequenceParameterSet: UInt8 = 33
    static let pictureParameterSet: UInt8 = 34
    static let accessUnitDelimiter: UInt8 = 35

    public static let nalHeaderSize = 2
    public static let aggregationHeaderSize = 2
    public static let fragmentHeaderSize = 3

    /// The AP's payload header: F set if any unit's is, the lowest LayerId and the lowest
    /// TID of the aggregated units (4.4.2).
    public static func aggregationHeader(_ frame: [UInt8], _ units: ArraySlice<Range<Int>>) -> [UInt8] {
        var forbidden: UInt8 = 0
        var layer = UInt8(63)
        var temporal = UInt8(7)
        for unit in units {
            let first = frame[unit.lowerBound], second = frame[unit.lowerBound + 1]
            forbidden |= first & 0x80
            layer = min(layer, (first & 1) << 5 | second >> 3)
            temporal = min(temporal, second & 7)
        }
        return [forbidden | aggregationPacket << 1 | layer >> 5, (layer & 0x1F) << 3 | temporal]
    }

    /// The FU's payload header (the NAL unit's, type 49) and FU header (S, E, FuType) (4.4.3).
    public static func fragmentHeader(_ frame: [UInt8], nalHeader: Int, start: Bool, end: Bool) -> [UInt8] {
        let first = frame[nalHeader], second = frame[nalHeader + 1]
        let type = first >> 1 & 0x3F
        return [first & 0x81 | fragmentationUnit << 1, second, (start ? 0x80 : 0) | (end ? 0x40 : 0) | type]
    }

    public static func classify(_ reader: ByteReader) throws(ParseError) -> NalPacketKind {
        guard reader.remaining >= 2 else { throw .truncated("H.265 payload header") }
        let first = try reader.peekU8()
        guard first & 0x80 == 0 else { throw .invalid("H.265 forbidden bit set") }
        switch first >> 1 & 0x3F {
        case 0...47:
            return .single
        case aggregationPacket:
            return .aggregation
        case fragmentationUnit:
            let fuHeader = try reader.peekU8(ahead: 2)
            return .fragment(type: fuHeader & 0x3F, start: fuHeader & 0x80 != 0, end: fuHeader & 0x40 != 0)
        default:
            throw ParseError(.unsupported, "H.265 payload type \(first >> 1 & 0x3F) (PACI or reserved)")
        }
    }

    public static func nalType(_ reader: ByteReader) throws(ParseError) -> UInt8 { try reader.peekU8() >> 1 & 0x3F }

    public static func reconstructedHeader(_ payload: ByteReader, fragmentType: UInt8) throws(ParseError) -> [UInt8] {
        [try payload.peekU8() & 0x81 | fragmentType << 1, try payload.peekU8(ahead: 1)]
    }

    /// IRAP pictures, BLA_W_LP (16) to CRA_NUT (21): decodable on their own (H.265 7.4.2.2).
    public static func isKeyframe(nalType: UInt8) -> Bool { (16...21).contains(nalType) }

    /// An access unit delimiter or a parameter set opens an access unit (H.265 7.4.2.4.4).
    public static func startsAccessUnit(nalType: UInt8) -> Bool { (videoParameterSet...accessUnitDelimiter).contains(nalType) }
}

/// H.265 access units into RTP payloads (RFC 7798).
public typealias H265Packetizer = NalPacketizer<H265PayloadFormat>
/// RTP payloads of RFC 7798 back into Annex-B access units.
public typealias H265Depacketizer = NalDepacketizer<H265PayloadFormat>
