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
    /// Everything before the payload, as parsed.
    public let header: RtpPacketHeader
    /// Where the payload lies in `bytes` (padding excluded).
    public let payloadRange: Range<Int>
    /// Number of padding bytes at the end, including the count byte (0 without P bit).
    public let paddingLength: Int

    @inlinable public var marker: Bool { header.marker }
    @inlinable public var payloadType: UInt8 { header.payloadType }
    @inlinable public var sequenceNumber: UInt16 { header.sequenceNumber }
    @inlinable public var timestamp: UInt32 { header.timestamp }
    @inlinable public var ssrc: UInt32 { header.ssrc }
    /// Number of contributing sources (the CC field).
    @inlinable public var csrcCount: Int { header.csrcCount }
    /// The "defined by profile" field of the header extension (0xBEDE one-byte,
    /// 0x100X two-byte, RFC 8285), or nil without an extension.
    @inlinable public var extensionProfile: UInt16? { header.extensionProfile }
    /// Where the extension data (after its 4-byte header) lies in `bytes`.
    @inlinable public var extensionRange: Range<Int> { header.extensionRange }

    /// The fixed header is 12 bytes (RFC 3550 5.1).
    public static let fixedHeaderSize = 12

    /// Parses `bytes` as one RTP packet; throws on anything RFC 3550 forbids (wrong
    /// version, lengths past the end, a padding count larger than the payload).
    public init(parsing bytes: [UInt8]) throws(ParseError) {
        let header = try bytes.withParsableBytes { (raw) throws(ParseError) in try RtpPacketHeader(parsing: raw) }
        try self.init(header: header, plain: bytes)
    }

    /// The packet whose header was parsed before (from the protected datagram, which has
    /// the same header) and whose whole plain bytes are `plain`: only the padding is read.
    public init(header: RtpPacketHeader, plain bytes: [UInt8]) throws(ParseError) {
        self.header = header
        var payloadEnd = bytes.count
        if header.hasPadding {
            let count = bytes.last.map(Int.init) ?? 0
            guard count >= 1, count <= bytes.count - header.length else {
                throw .invalid("RTP padding count \(count)")
            }
            paddingLength = count
            payloadEnd -= count
        } else {
            paddingLength = 0
        }
        guard header.length <= payloadEnd else { throw .truncated("RTP packet shorter than its header") }
        payloadRange = header.length..<payloadEnd
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
