import PeerCore
import RTCBase

extension Peer.IceRestart {
    /// Started and not yet connected again: another `ice.restart` now is skipped, as the
    /// signaling carries one restart at a time.
    var isUnderWay: Bool { connectedAt == nil }

    /// The record's phases for this restart, counted from `action`, when the timeline
    /// `ice.restart` reached this side: `ice_restart_ms` to a pair selected with the new
    /// credentials and `ice_restart_lost_packets` meanwhile (docs/metrics.md); none when it
    /// never connected again.
    func phases(since action: Instant) -> [String: Double] {
        guard let connectedAt else { return [:] }
        return ["ice_restart_ms": connectedAt.milliseconds(since: action),
                "ice_restart_lost_packets": Double((lostAtConnected ?? lostAtStart) - lostAtStart)]
    }
}
