/// Which side of the pair nominates (RFC 8445 6.1.1).
public enum IceRole: String, Sendable {
    case controlling
    case controlled
}
