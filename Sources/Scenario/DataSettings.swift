/// A group's data channels (RFC 8831) and the messages sent on them (`groups[].data`,
/// docs/scenarios.md): pairs only, on targets that carry data channels.
public struct DataSettings: Codable, Equatable, Sendable {
    public var channels: [DataChannelSettings]
    public var message: DataMessageSettings?
}

/// One channel the caller opens (DCEP, RFC 8832), or both sides open with a fixed
/// `negotiated_id` (RFC 8831 6.5); at most one of `max_retransmits` and
/// `max_packet_life_ms` makes it partially reliable (RFC 3758).
public struct DataChannelSettings: Codable, Equatable, Sendable {
    public var label: String
    /// Default true.
    public var ordered: Bool?
    public var maxRetransmits: Int?
    public var maxPacketLifeMs: Int?
    public var negotiatedId: Int?
}

/// What is sent on every channel: messages of `size_bytes` (each carrying its sequence
/// number and send time), `rate_per_s` of them on average, in a `pattern`.
public struct DataMessageSettings: Codable, Equatable, Sendable {
    public enum Pattern: String, AllowedValues {
        /// The caller sends, the callee returns each message as it arrives.
        case echo
        /// The caller sends, the callee only receives.
        case oneWay = "one_way"
        /// The caller sends `burst_size` messages at once, `rate_per_s` on average.
        case burst
    }

    public var sizeBytes: Int?
    public var ratePerS: Double?
    public var pattern: Pattern?
    /// Messages per burst (`pattern: "burst"` only).
    public var burstSize: Int?
}
