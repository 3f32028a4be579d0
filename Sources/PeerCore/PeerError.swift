/// A remote description `Peer` cannot use, or an API call out of order; the message
/// says what is wrong in words (what the remote sent and what this side accepts).
public struct PeerError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
