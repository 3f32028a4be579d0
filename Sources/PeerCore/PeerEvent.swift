import ICE
import RTCBase
import SCTP
import SDP

/// What a `Peer` reports through `pollEvent()`.
public enum PeerEvent: Sendable, Hashable {
    /// A local candidate learned after the description was created (trickle, RFC 8838),
    /// with the mid of the first bundled section to signal it under (RFC 8840 4.4).
    case localCandidate(Candidate, mid: String)
    /// Every STUN/TURN server answered or failed: no more local candidates.
    case gatheringComplete
    /// A setup phase ended at `at` (see `PeerTimeline`).
    case phaseCompleted(PeerPhase, at: Instant)
    case iceStateChanged(IceConnectionState)
    /// ICE connected and DTLS done: media can be sent.
    case connected
    case frame(ReceivedFrame)
    /// The remote asked for a keyframe on a section we send (PLI or FIR, RFC 4585 6.3.1,
    /// RFC 5104 4.3.1).
    case keyframeRequested(mid: String)
    /// The data channel association: up, a channel open, a message, closed (RFC 8831).
    case dataChannel(SctpEvent)
    case failed(PeerFailure)
    /// `close(now:)` was called or the remote sent close_notify.
    case closed
}
