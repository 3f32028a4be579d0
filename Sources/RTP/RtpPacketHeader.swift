import RTCBase

/// The part of an RTP packet before its payload (RFC 3550 5.1: fixed header, CSRC list,
/// header extension), parsed in place from borrowed bytes.
///
/// SRTP leaves exactly this part in the clear (RFC 3711 3.1), so a receiver parses it once
/// from the protected datagram: SRTP takes its length, sequence number and SSRC, and
/// `RtpPacket(header:plain:)` completes the packet after decryption (only the padding
/// count, the last byte, is encrypted).
public struct RtpPacketHeader: Sendable {
    public let marker: Bool
    public let payloadType: UInt8
    public let sequenceNumber: UInt16
    public let timestamp: UInt32
    public let ssrc: UInt32
    /// Number of contributing sources (the CC field).
    public let csrcCount: Int
    /// The "defined by profile" field of the header extension, or nil without one.
    public let extensionProfile: UInt16?
    /// Where the extension data (after its 4-byte header) lies in the packet.
    public let extensionRange: Range<Int>
    /// The P bit: the payload ends in padding whose count is the packet's last byte.
    public let hasPadding: Bool
    /// Size of everything before the payload.
    public let length: Int

    /// Parses the header at the start of `bytes`; throws on a wrong version or lengths
    /// past the end.
    public init(parsing bytes: UnsafeRawBufferPointer) throws(ParseError) {
        guard bytes.count >= RtpPacket.fixedHeaderSize else {
            throw .truncated("RTP header: needs \(RtpPacket.fixedHeaderSize) bytes, \(bytes.count) left")
        }
        let first = bytes[0]
        guard first >> 6 == 2 else { throw .invalid("RTP version \(first >> 6)") }
        marker = bytes[1] & 0x80 != 0
        payloadType = bytes[1] & 0x7f
        sequenceNumber = Self.u16(bytes, at: 2)
        timestamp = UInt32(Self.u16(bytes, at: 4)) << 16 | UInt32(Self.u16(bytes, at: 6))
        ssrc = UInt32(Self.u16(bytes, at: 8)) << 16 | UInt32(Self.u16(bytes, at: 10))
        csrcCount = Int(first & 0x0f)
        hasPadding = first & 0x20 != 0
        var offset = RtpPacket.fixedHeaderSize + 4 * csrcCount
        guard offset <= bytes.count else { throw .truncated("RTP CSRC list: needs \(4 * csrcCount) bytes") }
        if first & 0x10 != 0 {
            guard offset + 4 <= bytes.count else { throw .truncated("RTP extension header: needs 4 bytes") }
            extensionProfile = Self.u16(bytes, at: offset)
            let words = Int(Self.u16(bytes, at: offset + 2))
            offset += 4
            guard offset + 4 * words <= bytes.count else { throw .truncated("RTP extension data: needs \(4 * words) bytes") }
            extensionRange = offset..<offset + 4 * words
            offset += 4 * words
        } else {
            extensionProfile = nil
            extensionRange = offset..<offset
        }
        length = offset
    }

    private static func u16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }
}
