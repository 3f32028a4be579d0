import RTCBase

/// Reads the payloads of a NAL-unit video codec (single NAL unit, aggregation and
/// fragmentation packets: RFC 6184 5.6-5.8, RFC 7798 4.4) back into an Annex-B stream
/// with a 4-byte start code per NAL unit. A packet carrying a keyframe NAL unit marks a
/// keyframe. A payload whose first NAL unit can only open an access unit (delimiter,
/// parameter set) starts one; for other payloads `isFrameStart` is nil and the assembler
/// finds the start from the previous frame.
public struct NalDepacketizer<Format: NalPayloadFormat>: RtpDepacketizer {
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
            if Format.isKeyframe(nalType: type) { keyframe = true }
        }
        let startsAccessUnit = firstStartsUnit && firstType.map(Format.startsAccessUnit) == true
        return RtpPayloadInfo(isFrameStart: startsAccessUnit ? true : nil, isKeyframe: keyframe)
    }

    public func append(_ payload: ByteReader, to frame: inout [UInt8]) throws(ParseError) {
        let kind = try Format.classify(payload)
        try forEachUnit(payload) { (type: UInt8, unit: ByteReader, startsUnit: Bool) throws(ParseError) in
            var unit = unit
            if case .fragment = kind {
                if startsUnit {
                    frame.append(contentsOf: AnnexB.startCode)
                    frame.append(contentsOf: try Format.reconstructedHeader(payload, fragmentType: type))
                }
            } else {
                frame.append(contentsOf: AnnexB.startCode)
            }
            frame.append(contentsOf: unit.readRest())
        }
    }

    /// Calls `body` with each NAL unit (or fragment) of the payload: its type, the bytes to
    /// copy (whole unit, or fragment data after the FU headers), and whether it starts a NAL unit.
    private func forEachUnit(
        _ payload: ByteReader, _ body: (UInt8, ByteReader, Bool) throws(ParseError) -> Void
    ) throws(ParseError) {
        var reader = payload
        switch try Format.classify(reader) {
        case .single:
            guard reader.remaining >= Format.nalHeaderSize else { throw .truncated("NAL unit header") }
            try body(try Format.nalType(reader), reader, true)
        case .aggregation:
            try reader.skip(Format.aggregationHeaderSize)
            guard !reader.isAtEnd else { throw .truncated("empty aggregation packet") }
            while !reader.isAtEnd {
                let size = Int(try reader.readU16("aggregated NAL unit size"))
                guard size >= Format.nalHeaderSize else { throw .invalid("aggregated NAL unit of size \(size)") }
                let unit = try reader.subReader(size, "aggregated NAL unit")
                try body(try Format.nalType(unit), unit, true)
            }
        case .fragment(let type, let start, let end):
            try reader.skip(Format.fragmentHeaderSize)
            guard !reader.isAtEnd else { throw .truncated("fragmentation unit without data") }
            guard !(start && end) else { throw .invalid("fragmentation unit with both S and E") }
            try body(type, reader, start)
        }
    }
}
