/// Why a protocol parser rejected its input.
///
/// Errors are structs with an extensible code and a human message (the style of
/// swift-nio): new codes never break callers. Malformed network input is counted and
/// dropped by the caller; it never traps.
public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem; compare with the static constants.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The input ended before a field that must be there.
        public static let truncated = Code("truncated")
        /// A field holds a value the protocol forbids.
        public static let invalidValue = Code("invalid value")
        /// Valid but not something this implementation handles.
        public static let unsupported = Code("unsupported")
        /// An integrity check (MAC, CRC, fingerprint) failed.
        public static let integrity = Code("integrity check failed")
        /// The input is larger than a configured limit.
        public static let tooLarge = Code("too large")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    public static func truncated(_ what: String) -> ParseError { ParseError(.truncated, what) }
    public static func invalid(_ what: String) -> ParseError { ParseError(.invalidValue, what) }
}
