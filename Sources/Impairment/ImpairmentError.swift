/// A profile or schedule that cannot be used, naming the field at fault.
///
/// Profiles come from scenario files written by people, so the message says which field
/// is wrong and what it accepts (`loss_pct must be within 0...100, got 120`).
public struct ImpairmentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The scenario-file name of the field (`loss_pct`, `burst_length`, ...).
    public var field: String
    /// What is wrong and what is allowed.
    public var message: String

    public init(field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}
