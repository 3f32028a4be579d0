/// The class of a STUN message (RFC 8489 5): request, indication or one of two responses.
public enum StunClass: UInt8, Sendable {
    case request = 0
    case indication = 1
    case successResponse = 2
    case errorResponse = 3
}
