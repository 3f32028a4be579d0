/// A STUN method: the 12-bit operation a message asks for (RFC 8489 5, RFC 8656 17).
///
/// A struct with static constants rather than an enum, so a method this code does not
/// know still decodes and can be answered with an error.
public struct StunMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    /// Any 12-bit value; higher bits are dropped.
    public init(rawValue: UInt16) { self.rawValue = rawValue & 0x0FFF }

    /// Binding (RFC 8489 18.1): connectivity checks, server-reflexive discovery, consent.
    public static let binding = StunMethod(rawValue: 0x001)
    /// Allocate (RFC 8656 7.2).
    public static let allocate = StunMethod(rawValue: 0x003)
    /// Refresh (RFC 8656 7.4).
    public static let refresh = StunMethod(rawValue: 0x004)
    /// Send indication (RFC 8656 11.1).
    public static let send = StunMethod(rawValue: 0x006)
    /// Data indication (RFC 8656 11.3).
    public static let data = StunMethod(rawValue: 0x007)
    /// CreatePermission (RFC 8656 10).
    public static let createPermission = StunMethod(rawValue: 0x008)
    /// ChannelBind (RFC 8656 12.1).
    public static let channelBind = StunMethod(rawValue: 0x009)

    public var description: String {
        switch self {
        case .binding: "Binding"
        case .allocate: "Allocate"
        case .refresh: "Refresh"
        case .send: "Send"
        case .data: "Data"
        case .createPermission: "CreatePermission"
        case .channelBind: "ChannelBind"
        default: "method 0x\(String(rawValue, radix: 16))"
        }
    }
}

extension StunMethod {
    /// The 14-bit message type with the class bits interleaved (RFC 8489 5, figure 3):
    /// M11..M7 C1 M6..M4 C0 M3..M0.
    static func messageType(_ method: StunMethod, _ messageClass: StunClass) -> UInt16 {
        let m = method.rawValue
        let c = UInt16(messageClass.rawValue)
        return (m & 0x000F) | (m & 0x0070) << 1 | (m & 0x0F80) << 2 | (c & 1) << 4 | (c & 2) << 7
    }

    /// Splits a message type into method and class (the inverse of `messageType`).
    static func split(_ type: UInt16) -> (StunMethod, StunClass) {
        let method = (type & 0x000F) | (type & 0x00E0) >> 1 | (type & 0x3E00) >> 2
        let classBits = UInt8(truncatingIfNeeded: (type >> 4) & 1 | (type >> 7) & 2)
        return (StunMethod(rawValue: method), StunClass(rawValue: classBits) ?? .request)
    }
}
