import RTCBase

/// A TURN ChannelData message (RFC 8656 12.4): a 4-byte header (channel number, length)
/// and application data, the cheap way to relay once a channel is bound.
public struct ChannelData: Equatable, Sendable {
    /// Channel numbers TURN allows (RFC 8656 12).
    public static let validChannels: ClosedRange<UInt16> = 0x4000...0x4FFF

    public var channel: UInt16
    public var payload: [UInt8]

    public init(channel: UInt16, payload: [UInt8]) {
        self.channel = channel
        self.payload = payload
    }

    /// Whether a datagram's first byte marks ChannelData (RFC 8656 12.4, RFC 7983: 64-79).
    public static func looksLikeChannelData(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        return (0x40...0x4F).contains(first)
    }

    /// Header and payload, padded with zeros to a multiple of four (RFC 8656 12.5 requires
    /// padding over TCP and allows it over UDP).
    public func encode() -> [UInt8] {
        var writer = ByteWriter(capacity: 4 + payload.count + 3)
        writer.writeU16(channel)
        writer.writeU16(UInt16(truncatingIfNeeded: payload.count))
        writer.write(payload)
        writer.writeZeros((4 - payload.count % 4) % 4)
        return writer.take()
    }

    /// Decodes a datagram: channel number in range, length no larger than what follows
    /// (the rest is padding).
    public static func decode(_ bytes: [UInt8]) throws(ParseError) -> ChannelData {
        var reader = ByteReader(bytes)
        let channel = try reader.readU16("channel number")
        guard validChannels.contains(channel) else { throw .invalid("channel number 0x\(String(channel, radix: 16))") }
        let length = Int(try reader.readU16("ChannelData length"))
        return ChannelData(channel: channel, payload: Array(try reader.readSlice(length, "ChannelData payload")))
    }
}
