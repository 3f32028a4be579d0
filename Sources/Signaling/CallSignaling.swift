import Net
import RTCBase

/// A way of setting up a call with a server as one stream machine whatever carries it:
/// HTTP requests (`HTTPSignaling` over SRS, WHIP/WHEP, Janus) or one WebSocket (Janus).
/// The runner's server peer drives every target through this and a stream host.
public protocol CallSignaling: StreamMachine where Event == CallSetupEvent {
    /// Sends the first request (the offer, or Janus's `create`).
    mutating func start(now: Instant)
    /// Our answer to the server's `.offer`.
    mutating func answer(_ sdp: String, now: Instant)
    /// A local candidate, or nil at the end of gathering (RFC 8838).
    mutating func trickle(_ candidate: TrickleCandidate?, now: Instant)
    /// Starts the teardown; `.closed` follows.
    mutating func hangUp(now: Instant)
    /// A text message to everyone in the conference (OWT `text`); servers without texts
    /// take none.
    mutating func sendText(_ text: String, now: Instant)
    /// An ICE restart (RFC 8445 9): our offer again with new credentials; the server's
    /// answer comes as `.iceRestarted`. Servers rtcswarm restarts no ICE with (validation
    /// refuses `ice.restart` for them) take none.
    mutating func restartIce(offer: String, now: Instant)
}

extension CallSignaling {
    public mutating func sendText(_ text: String, now: Instant) {}
    public mutating func restartIce(offer: String, now: Instant) {}
}

/// Janus over its WebSocket is one connection's machine.
extension SingleConnection: CallSignaling where Machine == JanusWebSocketCallSetup {
    public mutating func start(now: Instant) { machine.start(now: now) }
    public mutating func answer(_ sdp: String, now: Instant) { machine.answer(sdp, now: now) }
    public mutating func trickle(_ candidate: TrickleCandidate?, now: Instant) { machine.trickle(candidate, now: now) }
    public mutating func hangUp(now: Instant) { machine.hangUp(now: now) }
    public mutating func restartIce(offer: String, now: Instant) { machine.restartIce(offer: offer, now: now) }
}
