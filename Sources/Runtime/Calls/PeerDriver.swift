import Report

/// One synthetic peer as the runner sees it, whatever protocol it speaks: started at its
/// planned time, stopped at its planned end (or when the run is interrupted), and
/// reporting its life as a `PeerRecord` exactly once.
public protocol PeerDriver: AnyObject {
    var state: PeerLifecycle { get }
    func start()
    /// Ends the peer politely (leave, DTLS close_notify, DELETE); `interrupted` marks a
    /// stop before the planned end.
    func stop(interrupted: Bool)
}

/// Where a peer is in its life; the runner counts these for the progress line.
public enum PeerLifecycle: Sendable, Equatable {
    case waiting
    case connecting
    case connected
    case ended(PeerRecord.Outcome)
}
