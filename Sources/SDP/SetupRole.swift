/// `a=setup` (RFC 4145 4, RFC 8842 5): which side starts the DTLS handshake.
public enum SetupRole: String, Sendable, Hashable, CaseIterable {
    /// Offerer leaves the choice to the answerer (JSEP requires it in offers).
    case actpass
    /// This side is the DTLS client.
    case active
    /// This side is the DTLS server.
    case passive
    case holdconn

    /// The role an answer takes for this offered role (RFC 8842 5.3): `active` for
    /// actpass and passive, `passive` for active.
    public var answer: SetupRole {
        switch self {
        case .actpass, .passive: return .active
        case .active: return .passive
        case .holdconn: return .holdconn
        }
    }
}
