import Signaling

/// A call setup running on the loop, whatever carries it: `CallSetupHost` (HTTP requests
/// of SRS, WHIP/WHEP, Janus with a long poll) or `JanusWebSocketHost` (Janus on one
/// WebSocket). `ServerPeer` drives either through this.
public protocol CallSetupDriver: AnyObject {
    /// Where the adapter's events go.
    var onEvent: (CallSetupEvent) -> Void { get set }
    func start()
    /// Our answer to the server's `.offer`.
    func answer(_ sdp: String)
    /// A local candidate, or nil at the end of gathering.
    func trickle(_ candidate: TrickleCandidate?)
    /// Starts the teardown; `.closed` follows.
    func hangUp()
}

extension CallSetupHost: CallSetupDriver {}
