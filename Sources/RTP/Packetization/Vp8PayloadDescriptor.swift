import RTCBase

/// The VP8 payload descriptor (RFC 7741 4.2).
///
///     X R N S R PID(3) | I L T K RSV (if X) | M PictureID(7 or 15) (if I)
///     TL0PICIDX (if L) | TID(2) Y KEYIDX(5) (if T or K)
public struct Vp8PayloadDescriptor: Equatable, Sendable {
    public var nonReference: Bool
    /// S: the payload starts a VP8 partition.
    public var startOfPartition: Bool
    public var partitionIndex: UInt8
    /// 7- or 15-bit picture ID (15-bit when written).
    public var pictureId: UInt16?
    public var tl0PicIndex: UInt8?
    /// TID/Y/KEYIDX byte, kept as is.
    public var temporalKeyByte: UInt8?
    /// Bytes the descriptor takes at the start of the payload.
    public var size: Int

    public init(startOfPartition: Bool, partitionIndex: UInt8 = 0, pictureId: UInt16?, nonReference: Bool = false) {
        self.nonReference = nonReference
        self.startOfPartition = startOfPartition
        self.partitionIndex = partitionIndex
        self.pictureId = pictureId
        self.tl0PicIndex = nil
        self.temporalKeyByte = nil
        self.size = pictureId == nil ? 1 : 4
    }

    /// Reads the descriptor at the start of the payload in `reader`, leaving the reader
    /// at the VP8 data, which must not be empty (4.2).
    public init(from reader: inout ByteReader) throws(ParseError) {
        let start = reader.offset
        let first = try reader.readU8("VP8 descriptor")
        nonReference = first & 0x20 != 0
        startOfPartition = first & 0x10 != 0
        partitionIndex = first & 0x07
        pictureId = nil
        tl0PicIndex = nil
        temporalKeyByte = nil
        if first & 0x80 != 0 {
            let flags = try reader.readU8("VP8 extension")
            if flags & 0x80 != 0 {
                let high = try reader.readU8("VP8 picture ID")
                pictureId = high & 0x80 != 0
                    ? UInt16(high & 0x7f) << 8 | UInt16(try reader.readU8("VP8 picture ID"))
                    : UInt16(high)
            }
            if flags & 0x40 != 0 { tl0PicIndex = try reader.readU8("VP8 TL0PICIDX") }
            if flags & 0x30 != 0 { temporalKeyByte = try reader.readU8("VP8 TID/KEYIDX") }
        }
        size = reader.offset - start
        guard reader.remaining > 0 else { throw .truncated("VP8 payload without data") }
    }

    /// True when this payload starts the frame: S=1 and partition index 0 (4.3).
    public var startsFrame: Bool { startOfPartition && partitionIndex == 0 }

    /// Writes the descriptor: X=1 with a 15-bit picture ID when one is set.
    public func write(to writer: inout ByteWriter) {
        var first: UInt8 = partitionIndex & 0x07
        if nonReference { first |= 0x20 }
        if startOfPartition { first |= 0x10 }
        guard let pictureId else {
            writer.writeU8(first)
            return
        }
        writer.writeU8(first | 0x80)
        writer.writeU8(0x80)  // I: picture ID present
        writer.writeU16(0x8000 | pictureId & 0x7fff)  // M=1: 15-bit picture ID
    }
}
