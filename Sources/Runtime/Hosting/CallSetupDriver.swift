import Signaling

/// A call setup running on the loop, whatever carries it (HTTP requests of SRS, WHIP/WHEP,
/// Janus with a long poll; Janus on one WebSocket): a stream host of a `CallSignaling`
/// machine. `ServerPeer` drives every target through this.
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
    /// A text to everyone in the conference (OWT); other servers ignore it.
    func sendText(_ text: String)
    /// An ICE restart offer (servers without one ignore it); `.iceRestarted` answers.
    func restartIce(offer: String)
}

extension StreamHost: CallSetupDriver where Machine: CallSignaling {
    public func start() { perform { $0.start(now: $1) } }
    public func answer(_ sdp: String) { perform { $0.answer(sdp, now: $1) } }
    public func trickle(_ candidate: TrickleCandidate?) { perform { $0.trickle(candidate, now: $1) } }
    public func hangUp() { perform { $0.hangUp(now: $1) } }
    public func sendText(_ text: String) { perform { $0.sendText(text, now: $1) } }
    public func restartIce(offer: String) { perform { $0.restartIce(offer: offer, now: $1) } }
}
