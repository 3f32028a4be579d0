import RTCBase

/// A STUN message (RFC 8489 5): method, class, transaction ID and attributes.
///
/// Build one, then `encode(integrityKey:fingerprint:)` it; or `decode(_:)` received bytes
/// and, once the key is known (it can depend on USERNAME), `verifyIntegrity(key:)`.
/// Equality compares method, class, transaction ID and attributes.
public struct StunMessage: Equatable, Sendable {
    public var method: StunMethod
    public var messageClass: StunClass
    public var transactionID: TransactionID
    public var attributes: [StunAttribute]

    /// The bytes this message was decoded from and where its MESSAGE-INTEGRITY begins;
    /// nil for messages built locally.
    var received: Received?

    struct Received: Sendable {
        var bytes: [UInt8]
        var integrityOffset: Int?
    }

    public init(method: StunMethod, messageClass: StunClass, transactionID: TransactionID,
                attributes: [StunAttribute] = []) {
        self.method = method
        self.messageClass = messageClass
        self.transactionID = transactionID
        self.attributes = attributes
    }

    public static func == (lhs: StunMessage, rhs: StunMessage) -> Bool {
        lhs.method == rhs.method && lhs.messageClass == rhs.messageClass
            && lhs.transactionID == rhs.transactionID && lhs.attributes == rhs.attributes
    }

    /// A response to this request with the same method and transaction ID.
    public func response(_ messageClass: StunClass = .successResponse, attributes: [StunAttribute] = []) -> StunMessage {
        StunMessage(method: method, messageClass: messageClass, transactionID: transactionID, attributes: attributes)
    }

    /// The first attribute with type code `type`.
    public func first(_ type: UInt16) -> StunAttribute? {
        attributes.first { $0.type == type }
    }

    /// Whether an attribute with type code `type` is present.
    public func has(_ type: UInt16) -> Bool { first(type) != nil }

    /// Comprehension-required attributes this code does not understand (RFC 8489 7.3.1):
    /// a request carrying any gets a 420 response listing them.
    public var unknownComprehensionRequired: [UInt16] {
        attributes.filter(\.isUnknownComprehensionRequired).map(\.type)
    }

    /// Whether received bytes look like STUN (RFC 7983 first byte 0-3, RFC 8489 magic
    /// cookie): the cheap test a demultiplexer runs before decoding.
    public static func looksLikeStun(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 20 && bytes[0] < 4 && bytes[4] == 0x21 && bytes[5] == 0x12 && bytes[6] == 0xA4 && bytes[7] == 0x42
    }
}
