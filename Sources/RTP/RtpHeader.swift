import RTCBase

/// The fields of an RTP header to serialize (RFC 3550 5.1, extensions RFC 8285).
///
/// Senders keep one header per stream, change the sequence number, timestamp and marker
/// per packet and write into a reused `ByteWriter`, so the send path does not allocate
/// once the writer has grown.
public struct RtpHeader: Equatable, Sendable {
    /// One header extension element (RFC 8285 4.2/4.3).
    public struct Extension: Equatable, Sendable {
        public var id: UInt8
        public var value: [UInt8]
        public init(id: UInt8, value: [UInt8]) {
            self.id = id
            self.value = value
        }
    }

    public var marker: Bool
    public var payloadType: UInt8
    public var sequenceNumber: UInt16
    public var timestamp: UInt32
    public var ssrc: UInt32
    public var csrcs: [UInt32]
    public var extensions: [Extension]

    public init(
        marker: Bool = false, payloadType: UInt8, sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32,
        csrcs: [UInt32] = [], extensions: [Extension] = []
    ) {
        self.marker = marker
        self.payloadType = payloadType
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.csrcs = csrcs
        self.extensions = extensions
    }

    /// True when every element fits the one-byte form (IDs 1-14, 1-16 bytes, RFC 8285
    /// 4.2); otherwise the two-byte form (IDs 1-255, 0-255 bytes, 4.3) is written.
    public var fitsOneByteExtensions: Bool {
        extensions.allSatisfy { (1...14).contains($0.id) && (1...16).contains($0.value.count) }
    }

    /// Appends the header, `payload` and `padding` bytes of padding (the last one holding
    /// the count, RFC 3550 5.1) to `writer`. Up to 15 CSRCs are written; extension
    /// elements with an ID of 0 or a value over 255 bytes are a programming error.
    public func write<Payload: Collection>(
        payload: Payload, padding: UInt8 = 0, to writer: inout ByteWriter
    ) where Payload.Element == UInt8 {
        let csrcCount = min(csrcs.count, 15)
        var first: UInt8 = 0x80 | UInt8(csrcCount)
        if padding > 0 { first |= 0x20 }
        if !extensions.isEmpty { first |= 0x10 }
        writer.writeU8(first)
        writer.writeU8((marker ? 0x80 : 0) | (payloadType & 0x7f))
        writer.writeU16(sequenceNumber)
        writer.writeU32(timestamp)
        writer.writeU32(ssrc)
        for index in 0..<csrcCount { writer.writeU32(csrcs[index]) }
        if !extensions.isEmpty { writeExtensions(to: &writer) }
        writer.write(payload)
        if padding > 0 {
            writer.writeZeros(Int(padding) - 1)
            writer.writeU8(padding)
        }
    }

    private func writeExtensions(to writer: inout ByteWriter) {
        let oneByte = fitsOneByteExtensions
        writer.writeU16(oneByte ? RtpHeaderExtensionElements.oneByteProfile : RtpHeaderExtensionElements.twoByteProfile)
        let lengthAt = writer.count
        writer.writeU16(0)
        let start = writer.count
        for element in extensions {
            precondition(element.id != 0 && element.value.count <= 255, "invalid RTP header extension")
            if oneByte {
                writer.writeU8(element.id << 4 | UInt8(element.value.count - 1))
            } else {
                writer.writeU8(element.id)
                writer.writeU8(UInt8(element.value.count))
            }
            writer.write(element.value)
        }
        let length = writer.count - start
        let padded = (length + 3) / 4 * 4
        writer.writeZeros(padded - length)
        writer.patchU16(UInt16(padded / 4), at: lengthAt)
    }

    /// The header of a parsed packet (copies its CSRCs and extension elements).
    public init(_ packet: RtpPacket) {
        self.init(
            marker: packet.marker, payloadType: packet.payloadType, sequenceNumber: packet.sequenceNumber,
            timestamp: packet.timestamp, ssrc: packet.ssrc,
            csrcs: (0..<packet.csrcCount).compactMap { packet.csrc(at: $0) },
            extensions: packet.extensions.map { Extension(id: $0.id, value: Array(packet.bytes[$0.range])) })
    }
}
