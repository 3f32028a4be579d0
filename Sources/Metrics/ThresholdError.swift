/// A threshold expression that cannot be parsed: the message names the bad token and
/// what is allowed there.
public struct ThresholdError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The whole expression, when known.
    public var expression: String?
    public var message: String

    public init(_ message: String, expression: String? = nil) {
        self.message = message
        self.expression = expression
    }

    public var description: String {
        expression.map { "threshold '\($0)': \(message)" } ?? message
    }
}
