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
    /// The one result of the request `id` from `pollRequest`.
    mutating func handle(_ result: HTTPClientEvent, for id: Int, now: Instant)
    mutating func handleTimeout(now: Instant)
    func pollTimeout() -> Instant?
    mutating func pollRequest() -> CallSetupRequest?
    mutating func pollEvent() -> CallSetupEvent?
}

/// One HTTP request an adapter wants sent, on a new connection to `endpoint`.
public struct CallSetupRequest: Hashable, Sendable {
    /// Names this request in `handle(_:for:now:)`.
    public var id: Int
    /// Where to connect (scheme, host, port); the request target is already in `request`.
    public var endpoint: Endpoint
    public var request: HTTPRequest
    /// How long the response may take (a Janus long poll waits up to 30 s).
    public var timeout: Duration

    public init(id: Int, endpoint: Endpoint, request: HTTPRequest, timeout: Duration) {
        self.id = id
        self.endpoint = endpoint
        self.request = request
        self.timeout = timeout
    }
}

/// What an adapter tells the runner.
public enum CallSetupEvent: Hashable, Sendable {
    /// The server's answer to our offer: the call is set up.
    case answer(String)
    /// The server's offer (Janus subscriber, WHEP 406): reply with `answer(_:now:)`.
    case offer(String)
    /// ICE servers the server suggested (WHIP/WHEP `Link: rel="ice-server"`, RFC 9725 4.6).
    case iceServers([IceServerLink])
    /// The server's ICE credentials and candidates after an ICE restart (an sdpfrag).
    case iceRestarted(String)
    /// Something the server reported that the runner may log: Janus `webrtcup`,
    /// `media`, `slowlink`, `hangup`; a trickle the server refused.
    case notice(String)
    /// The call could not be set up, or the server ended it.
    case failed(CallSetupError)
    /// The teardown is over (or there was nothing to tear down).
    case closed
}

/// One local ICE candidate for trickling (RFC 8840 section 4).
public struct TrickleCandidate: Hashable, Sendable {
    /// The media section's `a=mid`.
    public var mid: String
    /// The media section's index in the offer.
    public var mLineIndex: Int
    /// The attribute value, `candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host`.
    public var candidate: String

    public init(mid: String, mLineIndex: Int, candidate: String) {
        self.mid = mid
        self.mLineIndex = mLineIndex
        self.candidate = candidate
    }
}
