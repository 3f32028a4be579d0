/// The ERROR-CODE attribute (RFC 8489 14.8): a code from 300 to 699 and a reason phrase.
public struct StunErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// Class times 100 plus number, e.g. 401.
    public var code: Int
    /// UTF-8 text for humans, at most 128 characters.
    public var reason: String

    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code) \(reason)" }

    /// 300 Try Alternate (RFC 8489 10).
    public static let tryAlternate = StunErrorCode(code: 300, reason: "Try Alternate")
    /// 400 Bad Request.
    public static let badRequest = StunErrorCode(code: 400, reason: "Bad Request")
    /// 401 Unauthenticated: missing or wrong credentials.
    public static let unauthenticated = StunErrorCode(code: 401, reason: "Unauthenticated")
    /// 403 Forbidden (RFC 8656).
    public static let forbidden = StunErrorCode(code: 403, reason: "Forbidden")
    /// 420 Unknown Attribute: comprehension-required attributes were not understood.
    public static let unknownAttribute = StunErrorCode(code: 420, reason: "Unknown Attribute")
    /// 437 Allocation Mismatch (RFC 8656).
    public static let allocationMismatch = StunErrorCode(code: 437, reason: "Allocation Mismatch")
    /// 438 Stale Nonce: retry with the new NONCE.
    public static let staleNonce = StunErrorCode(code: 438, reason: "Stale Nonce")
    /// 441 Wrong Credentials (RFC 8656).
    public static let wrongCredentials = StunErrorCode(code: 441, reason: "Wrong Credentials")
    /// 442 Unsupported Transport Protocol (RFC 8656).
    public static let unsupportedTransport = StunErrorCode(code: 442, reason: "Unsupported Transport Protocol")
    /// 486 Allocation Quota Reached (RFC 8656).
    public static let allocationQuotaReached = StunErrorCode(code: 486, reason: "Allocation Quota Reached")
    /// 487 Role Conflict (RFC 8445 7.3.1.1).
    public static let roleConflict = StunErrorCode(code: 487, reason: "Role Conflict")
    /// 500 Server Error.
    public static let serverError = StunErrorCode(code: 500, reason: "Server Error")
    /// 508 Insufficient Capacity (RFC 8656).
    public static let insufficientCapacity = StunErrorCode(code: 508, reason: "Insufficient Capacity")
}
