/// How hard the sender tries to deliver a message (RFC 3758 partial reliability, as
/// RFC 8831 6.1 uses it): always, or until it has been retransmitted `maxRetransmits`
/// times, or until `lifetime` has passed since it was handed to the association.
public enum Reliability: Hashable, Sendable {
    case reliable
    case maxRetransmits(UInt32)
    case lifetime(Duration)
}
