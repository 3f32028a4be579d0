/// What a `DtlsEndpoint` reports through `pollEvent()`.
public enum DtlsEvent: Hashable, Sendable {
    /// The handshake completed, the peer's certificate matched the SDP fingerprint, and
    /// SRTP keys were exported (RFC 5764 4.2).
    case connected(profile: DtlsSrtpProfile, keys: DtlsSrtpKeys)
    /// One record of application data after the handshake: in WebRTC, one SCTP packet
    /// (RFC 8261 3).
    case applicationData([UInt8])
    /// The peer sent close_notify (RFC 5246 7.2.1); the association is over.
    case closed
    /// The handshake or connection failed: the alert or OpenSSL error text, or a
    /// fingerprint mismatch.
    case failed(reason: String)
}
