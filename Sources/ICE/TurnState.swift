/// Allocation states of a `TurnClient` (RFC 8656 7).
public enum TurnState: Sendable, Equatable {
    case idle
    case allocating
    case allocated
    /// Allocation refused or the server stopped answering; the reason says which.
    case failed(String)
    case deallocated
}
