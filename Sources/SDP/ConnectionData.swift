import RTCBase

/// The `c=` line (RFC 8866 5.7): `IN IP4 127.0.0.1`.
public struct ConnectionData: Sendable, Hashable, CustomStringConvertible {
    public var networkType: String
    public var addressType: String
    /// The address as written; may carry `/ttl` or `/count` suffixes for multicast.
    public var address: String

    public init(networkType: String = "IN", addressType: String = "IP4", address: String) {
        self.networkType = networkType
        self.addressType = addressType
        self.address = address
    }

    /// `IN IP4 <address>` or `IN IP6 <address>` depending on the address.
    public init(address: String) {
        self.init(addressType: address.contains(":") ? "IP6" : "IP4", address: address)
    }

    public init(parsing text: Substring) throws(ParseError) {
        let fields = try SDPSyntax.tokens(text, "connection")
        guard fields.count == 3 else { throw .invalid("connection needs 3 fields, has \(fields.count)") }
        networkType = String(fields[0])
        addressType = String(fields[1])
        address = String(fields[2])
    }

    public var description: String { "\(networkType) \(addressType) \(address)" }
}
