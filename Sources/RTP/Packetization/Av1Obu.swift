import RTCBase

/// One open bitstream unit of AV1 (AV1 bitstream spec 5.3): its header byte, the optional
/// extension byte (temporal and spatial layer) and its payload. Read either from the
/// low-overhead bitstream format an encoder writes (every OBU with `obu_size`, 5.2) or
/// from an RTP OBU element, where the size field is usually left out (AV1 RTP payload
/// format 4.3).
public struct Av1Obu: Equatable, Sendable {
    /// obu_type values (AV1 6.2.2).
    public static let sequenceHeader: UInt8 = 1
    public static let temporalDelimiter: UInt8 = 2
    public static let frameHeader: UInt8 = 3
    public static let frame: UInt8 = 6
    public static let tileList: UInt8 = 8
    public static let padding: UInt8 = 15

    /// obu_has_size_field in the header byte.
    static let sizeFieldFlag: UInt8 = 0x02
    /// obu_extension_flag in the header byte.
    static let extensionFlag: UInt8 = 0x04

    /// The header byte, always written back with obu_has_size_field cleared.
    public var header: UInt8
    /// obu_extension_header, when obu_extension_flag is set.
    public var extensionHeader: UInt8?
    public var payload: ArraySlice<UInt8>

    public var type: UInt8 { header >> 3 & 0x0F }

    /// For a frame OBU or frame header with a payload: whether its uncompressed_header
    /// starts with show_existing_frame 0 and frame_type KEY_FRAME (AV1 5.9.2), as it does
    /// without a reduced still-picture header (never over RTP). Nil for other OBUs.
    public var isKeyFrameHeader: Bool? {
        guard type == Self.frame || type == Self.frameHeader, let first = payload.first else { return nil }
        return first & 0x80 == 0 && first >> 5 & 0x03 == 0
    }

    /// Reads one OBU at `reader`: with obu_size it takes that many bytes, without it the
    /// rest of `reader`. A `fragment` (the first piece of an OBU split across RTP packets)
    /// is the rest of `reader` whatever its obu_size says. Throws on a set forbidden bit, a
    /// missing extension byte or a size past the end.
    public static func read(from reader: inout ByteReader, fragment: Bool = false) throws(ParseError) -> Av1Obu {
        let header = try reader.readU8("OBU header")
        guard header & 0x80 == 0 else { throw .invalid("OBU forbidden bit set") }
        let extensionHeader = header & extensionFlag != 0 ? try reader.readU8("OBU extension header") : nil
        let size = header & sizeFieldFlag != 0 ? try reader.readLeb128("obu_size") : nil
        let payload = if let size, !fragment { try reader.readSlice(size, "OBU payload") } else { reader.readRest() }
        return Av1Obu(header: header & ~sizeFieldFlag, extensionHeader: extensionHeader, payload: payload)
    }

    /// Splits a temporal unit in the low-overhead bitstream format (AV1 5.2: every OBU
    /// carries obu_size); throws on an OBU without one or one that runs past the end.
    public static func split(_ bytes: [UInt8]) throws(ParseError) -> [Av1Obu] {
        var reader = ByteReader(bytes)
        var units: [Av1Obu] = []
        while !reader.isAtEnd {
            guard try reader.peekU8() & sizeFieldFlag != 0 else { throw .invalid("OBU without obu_size in a low-overhead bitstream") }
            units.append(try read(from: &reader))
        }
        return units
    }

    /// The header (and extension) bytes without a size field: an RTP OBU element
    /// before the payload.
    public var headerBytes: [UInt8] { extensionHeader.map { [header, $0] } ?? [header] }

    /// The OBU as an RTP OBU element: header without obu_size, then the payload.
    public var element: [UInt8] { headerBytes + payload }

    /// Appends the OBU in the low-overhead format (obu_has_size_field set, minimal obu_size).
    public func write(to bytes: inout [UInt8]) {
        bytes.append(header | Self.sizeFieldFlag)
        if let extensionHeader { bytes.append(extensionHeader) }
        bytes.append(contentsOf: Leb128.encode(payload.count))
        bytes.append(contentsOf: payload)
    }
}
