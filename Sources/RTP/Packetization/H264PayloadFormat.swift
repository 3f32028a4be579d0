import RTCBase

/// H.264 packetization-mode 1 (RFC 6184 5.6-5.8): a 1-byte NAL unit header (F, NRI,
/// type), STAP-A (type 24) and FU-A (type 28).
public enum H264PayloadFormat: NalPayloadFormat {
    static let stapA: UInt8 = 24
    static let fuA: UInt8 = 28
    static let idr: UInt8 = 5
    static let sequenceParameterSet: UInt8 = 7
    static let accessUnitDelimiter: UInt8 = 9

    public static let nalHeaderSize = 1
    public static let aggregationHeaderSize = 1
    public static let fragmentHeaderSize = 2

    /// The STAP-A header: the highest NRI and any F bit of the units (5.7.1).
    public static func aggregationHeader(_ frame: [UInt8], _ units: ArraySlice<Range<Int>>) -> [UInt8] {
        var forbidden: UInt8 = 0
        var nri: UInt8 = 0
        for unit in units {
            forbidden |= frame[unit.lowerBound] & 0x80
            nri = max(nri, frame[unit.lowerBound] & 0x60)
        }
        return [forbidden | nri | stapA]
    }

    /// FU indicator (F, NRI, 28) and FU header (S, E, R=0, type) (5.8).
    public static func fragmentHeader(_ frame: [UInt8], nalHeader: Int, start: Bool, end: Bool) -> [UInt8] {
        let header = frame[nalHeader]
        return [header & 0xE0 | fuA, (start ? 0x80 : 0) | (end ? 0x40 : 0) | header & 0x1F]
    }

    public static func classify(_ reader: ByteReader) throws(ParseError) -> NalPacketKind {
        let header = try reader.peekU8()
        guard header & 0x80 == 0 else { throw .invalid("H.264 forbidden bit set") }
        switch header & 0x1F {
        case 1...23:
            return .single
        case stapA:
            return .aggregation
        case fuA:
            let fuHeader = try reader.peekU8(ahead: 1)
            return .fragment(type: fuHeader & 0x1F, start: fuHeader & 0x80 != 0, end: fuHeader & 0x40 != 0)
        default:
            throw ParseError(.unsupported, "H.264 NAL type \(header & 0x1F) outside packetization-mode 1")
        }
    }

    public static func nalType(_ reader: ByteReader) throws(ParseError) -> UInt8 { try reader.peekU8() & 0x1F }

    public static func reconstructedHeader(_ payload: ByteReader, fragmentType: UInt8) throws(ParseError) -> [UInt8] {
        [try payload.peekU8() & 0xE0 | fragmentType]
    }

    public static func isKeyframe(nalType: UInt8) -> Bool { nalType == idr }

    /// An access unit delimiter or an SPS opens an access unit (H.264 7.4.1.2.3).
    public static func startsAccessUnit(nalType: UInt8) -> Bool {
        nalType == sequenceParameterSet || nalType == accessUnitDelimiter
    }
}

/// H.264 access units into RTP payloads (RFC 6184 packetization-mode 1).
public typealias H264Packetizer = NalPacketizer<H264PayloadFormat>
/// RTP payloads of RFC 6184 packetization-mode 1 back into Annex-B access units.
public typealias H264Depacketizer = NalDepacketizer<H264PayloadFormat>
