import RTCBase

/// Reads H.264 payloads of packetization-mode 1 (RFC 6184 5.6-5.8: single NAL unit,
/// STAP-A, FU-A) back into an Annex-B stream with a 4-byte start code per NAL unit.
/// A packet carrying an IDR slice (NAL type 5) marks a keyframe. A payload whose first
/// NAL unit is an access unit delimiter or an SPS starts an access unit (H.264
/// 7.4.1.2.3); for other payloads `isFrameStart` is nil and the assembler finds the
/// start from the previous frame.
public struct H264Depacketizer: RtpDepacketizer {
    static let idr: UInt8 = 5
    static let sequenceParameterSet: UInt8 = 7
    static let accessUnitDelimiter: UInt8 = 9

    public init() {}

    public func inspect(_ payload: ByteReader) throws(ParseError) -> RtpPayloadInfo {
        var keyframe = false
        var firstType: UInt8?
        var firstStartsUnit = false
        try forEachUnit(payload) { (type: UInt8, _: ByteReader, startsUnit: Bool) in
            if firstType == nil {
                firstType = type
                firstStartsUnit = startsUnit
            }
            if type == Self.idr { keyframe = true }
        }
        let startsAccessUnit = firstStartsUnit
            && (firstType == Self.sequenceParameterSet || firstType == Self.accessUnitDelimiter)
        return RtpPayloadInfo(isFrameStart: startsAccessUnit ? true : nil, isKeyframe: keyframe)
    }

    public func append(_ payload: ByteReader, to frame: inout [UInt8]) throws(ParseError) {
        var header = UInt8(0)
        if let first = try? payload.peekU8() { header = first }
        try forEachUnit(payload) { (type: UInt8, unit: ByteReader, startsUnit: Bool) in
            var unit = unit
            if header & 0x1F == H264Packetizer.fuA {
                if startsUnit {
                    frame.append(contentsOf: AnnexB.startCode)
                    frame.append(header & 0xE0 | type)
                }
            } else {
                frame.append(contentsOf: AnnexB.startCode)
            }
            frame.append(contentsOf: unit.readRest())
        }
    }

    /// Calls `body` with each NAL unit (or FU-A fragment) of the payload: its type, the
    /// bytes to copy (whole unit, or fragment data after the FU header), and whether it
    /// starts a NAL unit.
    private func forEachUnit(
        _ payload: ByteReader, _ body: (UInt8, ByteReader, Bool) -> Void
    ) throws(ParseError) {
        var reader = payload
        let header = try reader.peekU8()
        guard header & 0x80 == 0 else { throw .invalid("H.264 forbidden bit set") }
        switch header & 0x1F {
        case 1...23:
            body(header & 0x1F, reader, true)
        case H264Packetizer.stapA:
            try reader.skip(1)
            guard !reader.isAtEnd else { throw .truncated("empty STAP-A") }
            while !reader.isAtEnd {
                let size = Int(try reader.readU16("STAP-A NAL size"))
                guard size > 0 else { throw .invalid("STAP-A NAL unit of size 0") }
                let unit = try reader.subReader(size, "STAP-A NAL unit")
                body(try unit.peekU8() & 0x1F, unit, true)
            }
        case H264Packetizer.fuA:
            try reader.skip(1)
            let fuHeader = try reader.readU8("FU-A header")
            guard !reader.isAtEnd else { throw .truncated("FU-A without data") }
            guard fuHeader & 0xC0 != 0xC0 else { throw .invalid("FU-A with both S and E") }
            body(fuHeader & 0x1F, reader, fuHeader & 0x80 != 0)
        default:
            throw ParseError(.unsupported, "H.264 NAL type \(header & 0x1F) outside packetization-mode 1")
        }
    }
}
