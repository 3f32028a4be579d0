/// An ICE server as a configuration names it, the W3C `RTCIceServer`: its `stun:`/`turn:`
/// URLs (RFC 7064, RFC 7065) and credentials, from a scenario's `ice.servers` or a WHIP/WHEP
/// `Link: rel="ice-server"` header (RFC 9725 section 4.6). The runtime resolves it into the
/// addresses a peer uses (`PeerCore.IceServer`).
public struct IceServerConfig: Codable, Hashable, Sendable {
    /// `stun:host:port`, `turn:host:port?transport=udp`, as written.
    public var urls: [String]
    public var username: String?
    public var credential: String?
    /// RFC 9725's `credential-type` (only "password" exists); not a scenario key.
    public var credentialType: String?

    public init(urls: [String], username: String? = nil, credential: String? = nil, credentialType: String? = nil) {
        self.urls = urls
        self.username = username
        self.credential = credential
        self.credentialType = credentialType
    }

    private enum CodingKeys: String, CodingKey { case urls, username, credential }

    /// The username, empty when none is given.
    public var user: String { username ?? "" }
    /// The credential, empty when none is given.
    public var password: String { credential ?? "" }
}
