/// Media direction attributes (RFC 8866 6.7, RFC 3264 6), from this side's point of view.
public enum MediaDirection: String, Sendable, Hashable, CaseIterable {
    case sendrecv, sendonly, recvonly, inactive

    public var sends: Bool { self == .sendrecv || self == .sendonly }
    public var receives: Bool { self == .sendrecv || self == .recvonly }

    public init(sends: Bool, receives: Bool) {
        switch (sends, receives) {
        case (true, true): self = .sendrecv
        case (true, false): self = .sendonly
        case (false, true): self = .recvonly
        case (false, false): self = .inactive
        }
    }

    /// The direction seen from the other side (RFC 3264 6.1): sendonly <-> recvonly.
    public var reversed: MediaDirection { MediaDirection(sends: receives, receives: sends) }
}
