import RTCBase

/// An RTP packet parsed in place (RFC 3550 5.1).
///
/// The packet keeps the caller's array (copy-on-write, so nothing is copied) and records
/// where the CSRC list, the header extension and the payload lie inside it. Parsing
/// allocates nothing; header extension elements are read through `extensions` or
/// `extensionElement(id:)` as ranges into `bytes`.
public struct RtpPacket: Sendable {
    /// The whole packet as received.
    public let bytes: [UInt8]
    public let marker: Bool
    public let payloadType: UInt8
    public let sequenceNumber: UInt16
    public let timestamp: UInt32
    public let ssrc: UInt32
    /// Number of contributing sources (the CC field).
    public let csrcCount: Int
    /// The "defined by profile" field of the header extension (0xBEDE one-byte,
    /// 0x100X two-byte, RFC 8285), or nil without an extension.
    public let extensionProfile: UInt16?
    /// Where the extension data (after its 4-byte header) lies in `bytes`.
    public let extensionRange: Range<Int>
    /// Where the payload lies in `bytes` (padding excluded).
    public let payloadRange: Range<Int>
    /// Number of padding bytes at the end, including the count byte (0 without P bit).
    public let paddingLength: Int

    /// The fixed header is 12 bytes (RFC 3550 5.1).
    public static let fixedHeaderSize = 12

    /// Parses `bytes` as one RTP packet; throws on anything RFC 3550 forbids (wrong
    /// version, lengths past the end, a padding count larger than the payload).
    public init(parsing bytes: [UInt8]) throws(ParseError) {
        var reader = ByteReader(bytes)
        let first = try reader.readU8("RTP header")
        guard first >> 6 == 2 else { throw .invalid("RTP version \(first >> 6)") }
        let second = try reader.readU8("RTP header")
        marker = second & 0x80 != 0
        payloadType = second & 0x7f
        sequenceNumber = try reader.readU16("RTP sequence number")
        timestamp = try reader.readU32("RTP timestamp")
        ssrc = try reader.readU32("RTP SSRC")
        csrcCount = Int(first & 0x0f)
        try reader.skip(4 * csrcCount, "RTP CSRC list")
        if first & 0x10 != 0 {
            extensionProfile = try reader.readU16("RTP extension profile")
            let words = Int(try reader.readU16("RTP extension length"))
            let start = reader.offset
            try reader.skip(4 * words, "RTP extension data")
            extensionRange = start..<reader.offset
        } else {
            extensionProfile = nil
            extensionRange = reader.offset..<reader.offset
        }
        var payloadEnd = bytes.count
        if first & 0x20 != 0 {
            let count = Int(bytes[bytes.count - 1])
            guard count >= 1, count <= bytes.count - reader.offset else {
                throw .invalid("RTP padding count \(count)")
            }
            paddingLength = count
            payloadEnd -= count
        } else {
            paddingLength = 0
        }
        payloadRange = reader.offset..<payloadEnd
        self.bytes = bytes
    }

    /// The payload as a view into `bytes`.
    @inlinable
    public var payload: ArraySlice<UInt8> { bytes[payloadRange] }

    /// Size of everything before the payload.
    @inlinable
    public var headerSize: Int { payloadRange.lowerBound }

    /// The CSRC at `index` (0 ..< csrcCount).
    public func csrc(at index: Int) -> UInt32? {
        guard index >= 0, index < csrcCount else { return nil }
        let at = Self.fixedHeaderSize + 4 * index
        return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
            | UInt32(bytes[at + 3])
    }

    /// The header extension elements (RFC 8285), empty for other profiles.
    public var extensions: RtpHeaderExtensionElements {
        RtpHeaderExtensionElements(bytes: bytes, range: extensionRange, profile: extensionProfile ?? 0)
    }

    /// The data range of the first extension element with `id`, if present.
    public func extensionElement(id: UInt8) -> Range<Int>? {
        for element in extensions where element.id == id { return element.range }
        return nil
    }
}
