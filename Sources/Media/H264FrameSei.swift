import RTCBase

/// The frame-identity SEI rtcswarm puts in every H.264 access unit, before the first
/// slice: a NAL unit of type 6 holding one `user_data_unregistered` message (payload type
/// 5, ITU-T H.264 D.1.6 / D.2.6):
///
///     uuid_iso_iec_11578   16 bytes  72 74 63 73 77 61 72 6d 2d 66 72 61 6d 65 69 64
///                                    ("rtcswarm-frameid" in ASCII)
///     frame index           8 bytes  unsigned, big-endian
///     capture time          8 bytes  signed nanoseconds of CLOCK_MONOTONIC, big-endian
///
/// Decoders ignore it; SFUs that pass H.264 through keep it.
public enum H264FrameSei {
    /// The fixed UUID that marks rtcswarm's message: ASCII "rtcswarm-frameid".
    public static let uuid: [UInt8] = Array("rtcswarm-frameid".utf8)
    static let payloadType = 5
    static let payloadSize = 32

    /// The complete SEI NAL unit (header byte, emulation-prevented payload) for `stamp`.
    public static func nalUnit(for stamp: FrameStamp) -> [UInt8] {
        var rbsp = ByteWriter(capacity: 36)
        rbsp.writeU8(UInt8(payloadType))
        rbsp.writeU8(UInt8(payloadSize))
        rbsp.write(uuid)
        rbsp.writeU64(UInt64(truncatingIfNeeded: stamp.index))
        rbsp.writeU64(UInt64(bitPattern: stamp.captureTime.nanoseconds))
        rbsp.writeU8(0x80)  // rbsp_trailing_bits: stop bit, then alignment zeros
        // forbidden_zero_bit 0, nal_ref_idc 0, nal_unit_type 6 (SEI)
        return [0x06] + AnnexB.addEmulationPrevention(rbsp.take())
    }

    /// The stamp in an SEI NAL unit (header byte included), or nil when the unit is not
    /// an SEI or holds no rtcswarm message. Malformed SEI throws.
    public static func read(nalUnit: ArraySlice<UInt8>) throws(ParseError) -> FrameStamp? {
        guard AnnexB.nalType(nalUnit) == 6 else { return nil }
        var reader = ByteReader(AnnexB.removeEmulationPrevention(nalUnit.dropFirst()))
        // sei_message() loop (7.3.2.3): until only the trailing bits remain.
        while try moreData(reader) {
            let type = try readCoded(&reader)
            let size = try readCoded(&reader)
            var message = try reader.subReader(size, "SEI payload")
            guard type == payloadType, size >= payloadSize,
                  Array(try message.readSlice(uuid.count, "SEI uuid")) == uuid
            else { continue }
            let index = try message.readU64("frame index")
            let nanoseconds = try message.readU64("capture time")
            guard index <= UInt64(Int.max) else { throw .invalid("frame index out of range") }
            return FrameStamp(index: Int(index), captureTime: Instant(nanoseconds: Int64(bitPattern: nanoseconds)))
        }
        return nil
    }

    /// more_rbsp_data(): anything but the final `80` trailing byte is left.
    private static func moreData(_ reader: ByteReader) throws(ParseError) -> Bool {
        if reader.remaining > 1 { return true }
        return reader.remaining == 1 ? try reader.peekU8() != 0x80 : false
    }

    /// payloadType or payloadSize: 0xFF bytes add 255 each, then a final byte (7.3.2.3.1).
    private static func readCoded(_ reader: inout ByteReader) throws(ParseError) -> Int {
        var value = 0
        while true {
            let byte = try reader.readU8("SEI type/size")
            value += Int(byte)
            if byte != 0xFF { return value }
            guard value < 1 << 20 else { throw ParseError(.tooLarge, "SEI type/size") }
        }
    }
}
