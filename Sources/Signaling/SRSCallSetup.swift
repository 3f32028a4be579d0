import Net
import RTCBase

/// SRS's own WebRTC API (PROTOCOLS.md section 1): `POST /rtc/v1/publish/` or
/// `/rtc/v1/play/` with a JSON body holding our offer; the answer is in the JSON reply.
///
/// SRS answers errors with HTTP 200 and a non-zero `code` (the reason is only in its
/// log), answers an offer without `a=msid`/`a=ssrc` with `code 0` and an SDP with no media
/// sections, and closes the connection without a response on some bad input; each of
/// these becomes a `.failed` that quotes what SRS sent.
///
/// There is no teardown request: the session ends when the peer sends DTLS
/// close_notify (or after 30 s without STUN), so `hangUp` only reports `.closed`; the
/// peer must send close_notify itself.
public struct SRSCallSetup: CallSetup {
    public enum Mode: String, Sendable {
        case publish, play
    }

    public let mode: Mode
    /// The API request URL, e.g. `http://127.0.0.1:1985/rtc/v1/publish/?eip=127.0.0.1`.
    public let apiEndpoint: Endpoint
    /// The JSON body sent.
    public let body: JSONValue
    public let timeout: Duration
    /// SRS's `sessionid` (`<SRS ufrag>:<our ufrag>`) once answered.
    public private(set) var sessionID: String?
    private var outbox = CallSetupOutbox()
    private var pending: Int?

    /// - Parameters:
    ///   - api: SRS's HTTP API, `http://127.0.0.1:1985` (any path is replaced).
    ///   - streamURL: `webrtc://host/app/stream`.
    ///   - eip: the address SRS should put in its candidate (`?eip=`), e.g. for loopback.
    ///   - codec: SRS's `?codec=` (`hevc`), the video codec it should take instead of
    ///     H.264 (PROTOCOLS.md section 1).
    ///   - tid: any transaction id; SRS only logs it.
    public init(api: Endpoint, streamURL: String, mode: Mode, offer: String, eip: String? = nil, codec: String? = nil,
                tid: String = "rtcswarm", timeout: Duration = .seconds(10)) {
        self.mode = mode
        var endpoint = api
        endpoint.path = "/rtc/v1/\(mode.rawValue)/"
        endpoint.query = nil
        let apiURL = endpoint.description
        let query = [eip.map { "eip=" + PercentEncoding.encode($0, allowing: ":") }, codec.map { "codec=" + PercentEncoding.encode($0) }]
        endpoint.query = query.contains { $0 != nil } ? query.compactMap { $0 }.joined(separator: "&") : nil
        apiEndpoint = endpoint
        self.timeout = timeout
        body = .object([
            "api": .string(apiURL), "tid": .string(tid), "streamurl": .string(streamURL),
            "clientip": .null, "sdp": .string(offer),
        ])
    }

    /// The `streamurl` SRS's API takes for `app`/`stream` on the server at `api`.
    public static func streamURL(api: Endpoint, app: String, stream: String) -> String {
        "webrtc://\(api.host)/\(app)/\(stream)"
    }

    public mutating func start(now: Instant) {
        guard pending == nil, !outbox.isFinished else { return }
        let request = HTTPRequest(method: .post, endpoint: apiEndpoint, headers: ["Content-Type": "application/json"],
                                  body: Array(body.serialized.utf8))
        pending = outbox.send(request, to: apiEndpoint, timeout: timeout)
    }

    /// SRS never sends an offer.
    public mutating func answer(_ sdp: String, now: Instant) {}

    /// SRS is ICE-lite and ignores client candidates (TARGETS.md).
    public mutating func trickle(_ candidate: TrickleCandidate?, now: Instant) {}

    /// Nothing to send: SRS ends the session on DTLS close_notify.
    public mutating func hangUp(now: Instant) {
        pending = nil
        outbox.emit(.closed)
    }

    public mutating func handle(_ result: HTTPClientEvent, for id: Int, now: Instant) {
        guard id == pending else { return }
        pending = nil
        switch result {
        case .failed(let error) where error.code == .closedWithoutAnswer:
            outbox.fail(.noAnswer, "SRS closed the connection without an answer")
        case .failed(let error):
            outbox.fail(.noAnswer, "SRS did not answer: \(error)")
        case .response(let response, _):
            receive(response)
        }
    }

    private mutating func receive(_ response: HTTPResponse) {
        let quoted = CallSetupOutbox.quote(response.body)
        guard response.status == 200 else {
            return outbox.fail(.refused, "SRS answered HTTP \(response.status) \(response.reason): \(quoted)")
        }
        guard let json = try? JSONValue(parsing: response.body), json.objectMembers != nil else {
            return outbox.fail(.badAnswer, "SRS answered with a body that is not a JSON object: \(quoted)")
        }
        guard let code = json["code"]?.integerValue else {
            return outbox.fail(.badAnswer, "SRS answered without a code: \(quoted)")
        }
        guard code == 0 else { return outbox.fail(.refused, "SRS answered code \(code): \(quoted)") }
        guard let sdp = json["sdp"]?.stringValue else {
            return outbox.fail(.badAnswer, "SRS answered code 0 without an sdp: \(quoted)")
        }
        if let error = CallSetupOutbox.checkRemoteSDP(sdp, from: "SRS") { return outbox.emit(.failed(error)) }
        sessionID = json["sessionid"]?.stringValue
        outbox.emit(.answer(sdp))
    }

    /// SRS needs no timer: the HTTP driver times the request out.
    public mutating func handleTimeout(now: Instant) {}
    public func pollTimeout() -> Instant? { nil }
    public mutating func pollRequest() -> CallSetupRequest? { outbox.pollRequest() }
    public mutating func pollEvent() -> CallSetupEvent? { outbox.pollEvent() }
}
