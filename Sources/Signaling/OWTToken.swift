import Net
import RTCBase

/// An OWT conference token: base64 of a JSON object `{tokenId, host, secure, signature}`
/// that the REST API (`POST /v1/rooms/{room}/tokens`) issues and `login` presents whole.
/// `host` says where the portal is (`portal.example.com:8080`), `secure` whether it
/// speaks TLS.
public struct OWTToken: Hashable, Sendable {
    /// The base64 text, sent unchanged in `login {token}`.
    public var text: String
    public var tokenID: String
    public var host: String
    public var secure: Bool

    public init(text: String) throws(ParseError) {
        let trimmed = text.trimmingBlanks
        guard let bytes = Base64.decode(trimmed), let json = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)) else {
            throw .invalid("OWT token is not base64 of a JSON object")
        }
        guard let host = json["host"]?.stringValue, !host.isEmpty else { throw .invalid("OWT token has no host") }
        guard let tokenID = json["tokenId"]?.stringValue else { throw .invalid("OWT token has no tokenId") }
        self.text = trimmed
        self.tokenID = tokenID
        self.host = host
        secure = json["secure"]?.boolValue ?? false
    }

    /// The portal the token names, as the client SDK reaches it: `host` with `http://`
    /// or `https://` put in front unless it already has a scheme.
    public func portal() throws(ParseError) -> Endpoint {
        if host.hasPrefix("http://") || host.hasPrefix("https://") { return try Endpoint(parsing: host) }
        return try Endpoint(parsing: (secure ? "https://" : "http://") + host)
    }
}

extension String {
    /// Without leading and trailing spaces and line breaks (a token pasted from a file).
    var trimmingBlanks: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
