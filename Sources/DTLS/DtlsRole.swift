/// Which side of the DTLS handshake an endpoint plays (RFC 8842 5.3): `a=setup:active`
/// is the client, `a=setup:passive` the server.
public enum DtlsRole: Hashable, Sendable {
    case client
    case server
}
