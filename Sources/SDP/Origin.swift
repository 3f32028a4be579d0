import RTCBase

/// The `o=` line (RFC 8866 5.2): who created the session and which version this is.
///
/// The session id and version are kept as decimal strings: Chromium's ids have 19
/// digits, above 2^53, and JSEP (RFC 9429 5.2.1) only asks for a 63-bit value.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    public var username: String
    public var sessionID: String
    public var sessionVersion: String
    public var networkType: String
    public var addressType: String
    public var address: String

    public init(
        username: String = "-", sessionID: String, sessionVersion: String = "2",
        networkType: String = "IN", addressType: String = "IP4", address: String = "127.0.0.1"
    ) {
        self.username = username
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
        self.networkType = networkType
        self.addressType = addressType
        self.address = address
    }

    /// Parses the value of an `o=` line: `<username> <sess-id> <sess-version> <nettype> <addrtype> <address>`.
    public init(parsing text: Substring) throws(ParseError) {
        let fields = try SDPSyntax.tokens(text, "origin")
        guard fields.count == 6 else { throw .invalid("origin needs 6 fields, has \(fields.count)") }
        for index in 1...2 where !fields[index].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            throw .invalid("origin session id/version '\(fields[index])' is not decimal")
        }
        username = String(fields[0])
        sessionID = String(fields[1])
        sessionVersion = String(fields[2])
        networkType = String(fields[3])
        addressType = String(fields[4])
        address = String(fields[5])
    }

    public var description: String {
        "\(username) \(sessionID) \(sessionVersion) \(networkType) \(addressType) \(address)"
    }
}
