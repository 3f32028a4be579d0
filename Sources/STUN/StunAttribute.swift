import RTCBase

/// One STUN attribute (RFC 8489 14, RFC 8445 16.1, RFC 8656 18), decoded to its meaning.
///
/// Attributes this code does not know are kept as `.other` with their raw value, so a
/// message round-trips and a server can name them in a 420 response.
/// `.messageIntegrity` and `.fingerprint` appear only in decoded messages: encoding
/// computes them (see `StunMessage.encode(integrityKey:fingerprint:)`).
public enum StunAttribute: Hashable, Sendable {
    /// MAPPED-ADDRESS (RFC 8489 14.1), from servers that predate XOR-MAPPED-ADDRESS.
    case mappedAddress(SocketAddress)
    /// XOR-MAPPED-ADDRESS (RFC 8489 14.2): the reflexive address the server saw.
    case xorMappedAddress(SocketAddress)
    /// XOR-PEER-ADDRESS (RFC 8656 18.3).
    case xorPeerAddress(SocketAddress)
    /// XOR-RELAYED-ADDRESS (RFC 8656 18.5).
    case xorRelayedAddress(SocketAddress)
    /// USERNAME (RFC 8489 14.3); ICE puts `remoteUfrag:localUfrag` here (RFC 8445 7.2.2).
    case username(String)
    /// REALM (RFC 8489 14.9).
    case realm(String)
    /// NONCE (RFC 8489 14.10).
    case nonce(String)
    /// SOFTWARE (RFC 8489 14.14).
    case software(String)
    /// ERROR-CODE (RFC 8489 14.8).
    case errorCode(StunErrorCode)
    /// UNKNOWN-ATTRIBUTES (RFC 8489 14.13): the types a 420 response did not understand.
    case unknownAttributes([UInt16])
    /// PRIORITY (RFC 8445 16.1).
    case priority(UInt32)
    /// USE-CANDIDATE (RFC 8445 16.1), no value.
    case useCandidate
    /// ICE-CONTROLLING with the sender's tie-breaker (RFC 8445 16.1).
    case iceControlling(UInt64)
    /// ICE-CONTROLLED with the sender's tie-breaker (RFC 8445 16.1).
    case iceControlled(UInt64)
    /// LIFETIME in seconds (RFC 8656 18.4).
    case lifetime(UInt32)
    /// REQUESTED-TRANSPORT (RFC 8656 18.7): an IP protocol number, 17 for UDP.
    case requestedTransport(UInt8)
    /// CHANNEL-NUMBER (RFC 8656 18.1).
    case channelNumber(UInt16)
    /// DATA (RFC 8656 18.6): an application datagram in Send and Data indications.
    case data([UInt8])
    /// MESSAGE-INTEGRITY (RFC 8489 14.5): the 20-byte HMAC-SHA1 as received.
    case messageIntegrity([UInt8])
    /// FINGERPRINT (RFC 8489 14.7): the value as received.
    case fingerprint(UInt32)
    /// Any other attribute, kept byte for byte.
    case other(type: UInt16, value: [UInt8])

    /// The attribute type codes (IANA "STUN Attributes" registry).
    public enum TypeCode {
        public static let mappedAddress: UInt16 = 0x0001
        public static let username: UInt16 = 0x0006
        public static let messageIntegrity: UInt16 = 0x0008
        public static let errorCode: UInt16 = 0x0009
        public static let unknownAttributes: UInt16 = 0x000A
        public static let channelNumber: UInt16 = 0x000C
        public static let lifetime: UInt16 = 0x000D
        public static let xorPeerAddress: UInt16 = 0x0012
        public static let data: UInt16 = 0x0013
        public static let realm: UInt16 = 0x0014
        public static let nonce: UInt16 = 0x0015
        public static let xorRelayedAddress: UInt16 = 0x0016
        public static let requestedTransport: UInt16 = 0x0019
        public static let xorMappedAddress: UInt16 = 0x0020
        public static let priority: UInt16 = 0x0024
        public static let useCandidate: UInt16 = 0x0025
        public static let software: UInt16 = 0x8022
        public static let fingerprint: UInt16 = 0x8028
        public static let iceControlled: UInt16 = 0x8029
        public static let iceControlling: UInt16 = 0x802A
    }

    /// This attribute's type code.
    public var type: UInt16 {
        switch self {
        case .mappedAddress: TypeCode.mappedAddress
        case .xorMappedAddress: TypeCode.xorMappedAddress
        case .xorPeerAddress: TypeCode.xorPeerAddress
        case .xorRelayedAddress: TypeCode.xorRelayedAddress
        case .username: TypeCode.username
        case .realm: TypeCode.realm
        case .nonce: TypeCode.nonce
        case .software: TypeCode.software
        case .errorCode: TypeCode.errorCode
        case .unknownAttributes: TypeCode.unknownAttributes
        case .priority: TypeCode.priority
        case .useCandidate: TypeCode.useCandidate
        case .iceControlling: TypeCode.iceControlling
        case .iceControlled: TypeCode.iceControlled
        case .lifetime: TypeCode.lifetime
        case .requestedTransport: TypeCode.requestedTransport
        case .channelNumber: TypeCode.channelNumber
        case .data: TypeCode.data
        case .messageIntegrity: TypeCode.messageIntegrity
        case .fingerprint: TypeCode.fingerprint
        case .other(let type, _): type
        }
    }

    /// Types 0x0000-0x7FFF are comprehension-required (RFC 8489 14): an agent that does
    /// not understand one must reject the request with 420.
    public var isUnknownComprehensionRequired: Bool {
        if case .other(let type, _) = self { return type < 0x8000 }
        return false
    }
}
