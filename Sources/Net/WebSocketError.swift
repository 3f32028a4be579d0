/// Close status codes (RFC 6455 section 7.4.1) and the error that carries one.
public struct WebSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The status code sent in the Close frame.
    public var closeCode: UInt16
    public var message: String

    public init(_ closeCode: UInt16, _ message: String) {
        self.closeCode = closeCode
        self.message = message
    }

    public static let normalClosure: UInt16 = 1000
    public static let goingAway: UInt16 = 1001
    public static let protocolError: UInt16 = 1002
    public static let unsupportedData: UInt16 = 1003
    /// Reported (never sent) when a Close frame had no status code.
    public static let noStatusReceived: UInt16 = 1005
    /// Reported (never sent) when the connection ended without a Close frame.
    public static let abnormalClosure: UInt16 = 1006
    public static let invalidPayload: UInt16 = 1007
    public static let policyViolation: UInt16 = 1008
    public static let messageTooBig: UInt16 = 1009
    public static let internalError: UInt16 = 1011

    /// Whether `code` may appear in a Close frame (RFC 6455 section 7.4).
    public static func isSendable(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    public var description: String { "WebSocket close \(closeCode): \(message)" }
}
