import RTCBase

/// Reads AV1 RTP payloads (AV1 RTP payload format v1.0) back into a temporal unit in the
/// low-overhead bitstream format (AV1 5.2) a decoder takes: each OBU with
/// obu_has_size_field set and its obu_size, fragments joined. Temporal delimiters and
/// tile lists are ignored, as receivers must (section 5).
///
/// A packet with N set, or whose first element begins a sequence header, starts a frame
/// and marks a keyframe; so does a frame OBU or header whose frame_type is KEY_FRAME (AV1
/// 5.9.2, read at its first payload byte: no reduced still-picture headers over RTP).
/// Other packets leave the frame start to the assembler (the marker of the frame before).
///
/// An OBU still open at the end of a packet (Y) is written with a 5-byte obu_size, which
/// no minimal size below 2^28 takes, so the continuation (Z) finds it at the end of the
/// frame, grows it, and writes the minimal size back once the OBU is whole.
public struct Av1Depacketizer: RtpDepacketizer {
    /// The obu_size width of an OBU whose last fragment has not arrived.
    static let openSizeBytes = 5

    public init() {}

    public func inspect(_ payload: ByteReader) throws(ParseError) -> RtpPayloadInfo {
        let packet = try Av1Payload(payload)
        var keyframe = packet.header.startsSequence
        var startsWithSequenceHeader = false
        for (index, range) in packet.elements.enumerated() where !packet.continues(index) {
            let obu = try Self.obu(payload.bytes, range, open: packet.isOpen(index))
            if index == 0, obu.type == Av1Obu.sequenceHeader { startsWithSequenceHeader = true }
            keyframe = keyframe || obu.type == Av1Obu.sequenceHeader || obu.isKeyFrameHeader == true
        }
        let start = packet.header.startsSequence || startsWithSequenceHeader
        return RtpPayloadInfo(isFrameStart: start ? true : nil, isKeyframe: keyframe)
    }

    public func append(_ payload: ByteReader, to frame: inout [UInt8]) throws(ParseError) {
        let packet = try Av1Payload(payload)
        for (index, range) in packet.elements.enumerated() {
            if packet.continues(index) {
                // The OBU's start is not in this frame (nothing before it): nothing to join.
                guard !frame.isEmpty else { continue }
                try Self.extendOpenObu(in: &frame, with: payload.bytes[range], closing: !packet.isOpen(index))
                continue
            }
            let obu = try Self.obu(payload.bytes, range, open: packet.isOpen(index))
            guard !Self.ignored(obu.type) else { continue }
            if packet.isOpen(index) {
                frame.append(obu.header | Av1Obu.sizeFieldFlag)
                if let extensionHeader = obu.extensionHeader { frame.append(extensionHeader) }
                frame.append(contentsOf: Leb128.encode(obu.payload.count, fixedSize: Self.openSizeBytes))
                frame.append(contentsOf: obu.payload)
            } else {
                obu.write(to: &frame)
            }
        }
    }

    /// The OBU an element starts. An open element (a first fragment) must hold the whole
    /// OBU header; temporal delimiters and tile lists can only come whole.
    private static func obu(_ bytes: [UInt8], _ range: Range<Int>, open: Bool) throws(ParseError) -> Av1Obu {
        var reader = ByteReader(bytes, range: range)
        let obu = try Av1Obu.read(from: &reader, fragment: open)
        guard !(open && ignored(obu.type)) else { throw ParseError(.unsupported, "fragmented OBU of type \(obu.type)") }
        return obu
    }

    /// Temporal delimiters and tile lists, which receivers ignore (section 5).
    private static func ignored(_ type: UInt8) -> Bool { type == Av1Obu.temporalDelimiter || type == Av1Obu.tileList }

    /// Adds `fragment` to the OBU left open at the end of `frame`, and when `closing`
    /// rewrites its obu_size minimally. Throws when the frame does not end in an open OBU.
    private static func extendOpenObu(in frame: inout [UInt8], with fragment: ArraySlice<UInt8>, closing: Bool) throws(ParseError) {
        let (sizeField, sizeSoFar) = try openObu(frame)
        let size = sizeSoFar + fragment.count
        guard size < 1 << 28 else { throw ParseError(.tooLarge, "OBU of \(size) bytes") }
        frame.append(contentsOf: fragment)
        frame.replaceSubrange(sizeField, with: closing ? Leb128.encode(size) : Leb128.encode(size, fixedSize: openSizeBytes))
    }

    /// Where the obu_size of the frame's last OBU lies and what it says, if that OBU is
    /// still open.
    private static func openObu(_ frame: [UInt8]) throws(ParseError) -> (sizeField: Range<Int>, size: Int) {
        var reader = ByteReader(frame)
        var last: (sizeField: Range<Int>, size: Int)?
        while !reader.isAtEnd {
            let header = try reader.readU8("OBU header")
            if header & Av1Obu.extensionFlag != 0 { try reader.skip(1, "OBU extension header") }
            let start = reader.offset
            let size = try reader.readLeb128("obu_size")
            last = (start..<reader.offset, size)
            try reader.skip(size, "OBU payload")
        }
        guard let last, last.sizeField.count == openSizeBytes else { throw .invalid("continuation fragment without an open OBU") }
        return last
    }
}
