import Net
import RTCBase

/// WHIP (RFC 9725) and WHEP (the IETF draft) clients, as one sans-IO adapter: `POST` the
/// offer as `application/sdp`, take the answer from `201 Created`, keep its `Location`
/// (resolved against the request URL) and `ETag`, and report `Link: rel="ice-server"`.
///
/// - `307`/`308` re-POST to the new `Location`, at most `maxRedirects` times (4.5).
/// - `503` (and WHEP `409`, stream not there yet) fail with the `Retry-After` value.
/// - WHEP `406` carries the server's counter-offer: it is reported as `.offer`, and our
///   `answer` goes back in a `PATCH` of the session URL.
/// - Trickle: `PATCH` with `application/trickle-ice-sdpfrag` and `If-Match: <etag>`
///   (4.3.1); candidates that come while a PATCH runs go together in the next one; a
///   `405`/`501` means the server does not trickle, and no more are sent.
/// - ICE restart: `PATCH` with `If-Match: "*"` and new credentials (4.3.2), `.iceRestarted`
///   with the server's fragment.
/// - Teardown: `DELETE` of the session URL (4.4); a hang-up during the POST deletes the
///   session as soon as it exists.
///
/// SRS closes the connection without any response when it cannot use the offer; that is
/// reported as "server closed the connection without an answer". SRS's WHEP `Location`
/// names its WHIP path; DELETE works there all the same.
public struct WHIPCallSetup: CallSetup {
    public enum Kind: String, Sendable {
        case whip = "WHIP", whep = "WHEP"
    }

    enum Phase: Sendable {
        case idle
        case offering(request: Int)
        /// WHEP 406: waiting for `answer`.
        case awaitingAnswer
        case answering(request: Int)
        case established
        case deleting(request: Int)
        case done
    }

    public let kind: Kind
    /// Where the offer goes; after a redirect, where it went.
    public internal(set) var endpoint: Endpoint
    public let offer: String
    /// Sent as `Authorization: Bearer <token>` on every request (RFC 9725 4.2).
    public var token: String?
    public var maxRedirects: Int
    public var timeout: Duration
    /// The WHIP/WHEP session URL from `Location`, once known.
    public internal(set) var sessionURL: Endpoint?
    /// The session's current entity tag, for `If-Match`.
    public internal(set) var etag: String?
    var phase: Phase = .idle
    var redirects = 0
    var hangUpRequested = false
    var fragment: TrickleFragment
    var pendingCandidates: [TrickleCandidate] = []
    var pendingComplete = false
    var trickleRequest: Int?
    var trickleSupported = true
    var restartRequest: Int?
    var outbox = CallSetupOutbox()

    /// `offer` is our full SDP offer (sendonly for WHIP, recvonly for WHEP).
    public init(kind: Kind, endpoint: Endpoint, offer: String, token: String? = nil, maxRedirects: Int = 3,
                timeout: Duration = .seconds(10)) {
        self.kind = kind
        self.endpoint = endpoint
        self.offer = offer
        self.token = token
        self.maxRedirects = maxRedirects
        self.timeout = timeout
        fragment = TrickleFragment(offer: offer)
    }

    /// SRS's WHIP or WHEP endpoint for `app`/`stream` on its API (`http://host:1985`).
    public static func srs(kind: Kind, api: Endpoint, app: String, stream: String, offer: String,
                           eip: String? = nil, codec: String? = nil) -> WHIPCallSetup {
        var endpoint = api
        endpoint.path = kind == .whip ? "/rtc/v1/whip/" : "/rtc/v1/whep/"
        var items = [(name: "app", value: app), (name: "stream", value: stream)]
        if let eip { items.append((name: "eip", value: eip)) }
        if let codec { items.append((name: "codec", value: codec)) }
        endpoint.query = PercentEncoding.query(items)
        return WHIPCallSetup(kind: kind, endpoint: endpoint, offer: offer)
    }

    public mutating func start(now: Instant) {
        guard case .idle = phase else { return }
        postOffer()
    }

    public mutating func answer(_ sdp: String, now: Instant) {
        guard case .awaitingAnswer = phase, let sessionURL else { return }
        var headers = authorized(["Content-Type": "application/sdp"])
        if let etag { headers.add("If-Match", etag) }
        let request = HTTPRequest(method: .patch, endpoint: sessionURL, headers: headers, body: Array(sdp.utf8))
        phase = .answering(request: outbox.send(request, to: sessionURL, timeout: timeout))
    }

    public mutating func trickle(_ candidate: TrickleCandidate?, now: Instant) {
        guard trickleSupported, !outbox.isFinished else { return }
        if let candidate { pendingCandidates.append(candidate) } else { pendingComplete = true }
        sendTrickleIfReady()
    }

    /// Restarts ICE with new local credentials (RFC 9725 4.3.2); the server's answer comes
    /// as `.iceRestarted`.
    public mutating func restartICE(ufrag: String, pwd: String, now: Instant) {
        guard case .established = phase, let sessionURL, restartRequest == nil else { return }
        fragment.ufrag = ufrag
        fragment.pwd = pwd
        pendingCandidates = []
        pendingComplete = false
        let body = fragment.text(candidates: [], complete: false, allSections: true)
        let headers = authorized(["Content-Type": "application/trickle-ice-sdpfrag", "If-Match": "\"*\""])
        let request = HTTPRequest(method: .patch, endpoint: sessionURL, headers: headers, body: Array(body.utf8))
        restartRequest = outbox.send(request, to: sessionURL, timeout: timeout)
    }

    public mutating func hangUp(now: Instant) {
        switch phase {
        case .offering, .answering:
            hangUpRequested = true
        case .awaitingAnswer, .established:
            deleteSession()
        case .idle:
            phase = .done
            outbox.emit(.closed)
        case .deleting, .done:
            return
        }
    }

    /// No timer: the HTTP driver times each request out.
    public mutating func handleTimeout(now: Instant) {}
    public func pollTimeout() -> Instant? { nil }
    public mutating func pollRequest() -> CallSetupRequest? { outbox.pollRequest() }
    public mutating func pollEvent() -> CallSetupEvent? { outbox.pollEvent() }

    // MARK: Requests

    mutating func postOffer() {
        let headers = authorized(["Content-Type": "application/sdp", "Accept": "application/sdp"])
        let request = HTTPRequest(method: .post, endpoint: endpoint, headers: headers, body: Array(offer.utf8))
        phase = .offering(request: outbox.send(request, to: endpoint, timeout: timeout))
    }

    mutating func deleteSession() {
        guard let sessionURL else {
            phase = .done
            return outbox.emit(.closed)
        }
        let request = HTTPRequest(method: .delete, endpoint: sessionURL, headers: authorized([:]))
        phase = .deleting(request: outbox.send(request, to: sessionURL, timeout: timeout))
    }

    mutating func sendTrickleIfReady() {
        guard case .established = phase, trickleSupported, trickleRequest == nil, restartRequest == nil,
              let sessionURL, !pendingCandidates.isEmpty || pendingComplete else { return }
        let body = fragment.text(candidates: pendingCandidates, complete: pendingComplete, allSections: false)
        pendingCandidates = []
        pendingComplete = false
        var headers = authorized(["Content-Type": "application/trickle-ice-sdpfrag"])
        if let etag { headers.add("If-Match", etag) }
        let request = HTTPRequest(method: .patch, endpoint: sessionURL, headers: headers, body: Array(body.utf8))
        trickleRequest = outbox.send(request, to: sessionURL, timeout: timeout)
    }

    func authorized(_ headers: HTTPHeaders) -> HTTPHeaders {
        var all = headers
        if let token { all.add("Authorization", "Bearer \(token)") }
        return all
    }
}
