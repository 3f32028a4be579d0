import Net
import RTCBase

/// One way of setting up a call over HTTP (SRS's API, WHIP, WHEP, Janus), as a sans-IO
/// state machine, so the runner drives every adapter the same way.
///
/// The adapter asks for HTTP requests (`pollRequest`), each on a connection of its own
/// (the servers close after answering, and a Janus long poll runs beside its POSTs); the
/// driver sends each one and hands back exactly one `HTTPClientEvent` for it through
/// `handle(_:for:now:)`. The adapter reports the server's SDP, notices and failures
/// through `pollEvent`, in the server's words. `hangUp` starts the teardown; `.closed`
/// says it is over, after which the driver drops any request still running (a Janus long
/// poll). After `.failed` no more events come; `hangUp` may still send a request that
/// releases what the server kept (Janus's session), without waiting for its answer.
public protocol CallSetup: Sendable {
    /// Sends the first request (the offer, or Janus's `create`).
    mutating func start(now: Instant)
    /// Our answer to the server's `.offer` (Janus subscriber, WHEP 406 counter-offer).
    mutating func answer(_ sdp: String, now: Instant)
    /// A local ICE candidate, or nil once gathering is complete (RFC 8838 end-of-candidates).
    mutating func trickle(_ candidate: TrickleCandidate?, now: Instant)
    /// Ends the call: the teardown requests, then `.closed`.
    mutating func hangUp(now: Instant)
    /// An ICE restart: our offer again with new credentials (`.iceRestarted` brings the
    /// server's); adapters rtcswarm restarts no ICE through take none.
    mutating func restartIce(offer: String, now: Instant)
    /// The one result of the request `id` from `pollRequest`.
    mutating func handle(_ result: HTTPClientEvent, for id: Int, now: Instant)
    mutating func handleTimeout(now: Instant)
    func pollTimeout() -> Instant?
    mutating func pollRequest() -> CallSetupRequest?
    mutating func pollEvent() -> CallSetupEvent?
}

extension CallSetup {
    public mutating func restartIce(offer: String, now: Instant) {}
}
