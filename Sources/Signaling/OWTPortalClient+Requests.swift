import Net
import RTCBase
import SDP

/// The requests an owner makes and the portal's acks to them.
extension OWTPortalClient {
    /// `publish {media: {tracks: [{type, mid, source}]}, transport: {type: "webrtc"}}` with
    /// one track per audio or video section of `offer`; `soac` with the offer follows the
    /// ack, and `.accepted` names the transport.
    public mutating func publish(offer: String, audioSource: String = "mic", videoSource: String = "camera",
                                 now: Instant) throws(ParseError) -> OWTRequestTag {
        let tracks = try Self.tracks(of: offer) { $0 == .audio ? ["source": .string(audioSource)] : ["source": .string(videoSource)] }
        let tag = takeTag()
        let body: JSONValue = .object(["media": .object(["tracks": .array(tracks)]), "transport": .object(["type": "webrtc"])])
        send("publish", [body], as: .publish(tag, offer: offer), now: now)
        return tag
    }

    /// `subscribe {media: {tracks: [{type, mid, from}]}, transport: {type: "webrtc"}}`: each
    /// audio or video section of `offer` receives that kind from stream `from`.
    public mutating func subscribe(offer: String, from streamID: String, now: Instant) throws(ParseError) -> OWTRequestTag {
        let tracks = try Self.tracks(of: offer) { _ in ["from": .string(streamID)] }
        let tag = takeTag()
        let body: JSONValue = .object(["media": .object(["tracks": .array(tracks)]), "transport": .object(["type": "webrtc"])])
        send("subscribe", [body], as: .subscribe(tag, offer: offer), now: now)
        return tag
    }

    /// `soac {id, signaling: {type: "candidate", candidate: {candidate: "a=candidate:…", sdpMid, sdpMLineIndex}}}`.
    public mutating func sendCandidate(_ candidate: TrickleCandidate, transportID: String, now: Instant) {
        let signaling: JSONValue = .object(["type": "candidate", "candidate": Self.json(candidate)])
        send("soac", [.object(["id": .string(transportID), "signaling": signaling])], as: .soac, now: now)
    }

    /// `soac {id, signaling: {type: "removed-candidates", candidates: [...]}}`.
    public mutating func removeCandidates(_ candidates: [TrickleCandidate], transportID: String, now: Instant) {
        let signaling: JSONValue = .object(["type": "removed-candidates", "candidates": .array(candidates.map(Self.json))])
        send("soac", [.object(["id": .string(transportID), "signaling": signaling])], as: .soac, now: now)
    }

    /// `unpublish {id}` with the publication id `.accepted` gave.
    public mutating func unpublish(_ sessionID: String, now: Instant) {
        send("unpublish", [.object(["id": .string(sessionID)])], as: .unpublish, now: now)
    }

    /// `unsubscribe {id}` with the subscription id `.accepted` gave.
    public mutating func unsubscribe(_ sessionID: String, now: Instant) {
        send("unsubscribe", [.object(["id": .string(sessionID)])], as: .unsubscribe, now: now)
    }

    /// `text {to, message}`; `to` is a participant id or `all`.
    public mutating func sendText(_ message: String, to: String = "all", now: Instant) {
        send("text", [.object(["to": .string(to), "message": .string(message)])], as: .text, now: now)
    }

    /// `logout`, then the connection closes and `.loggedOut` follows.
    public mutating func logout(now: Instant) {
        guard stage == .joined else { return fail("OWT portal: logged out before joining") }
        send("logout", [], as: .logout, now: now)
        stage = .loggingOut
    }

    // MARK: Inside

    /// Emits a request with an ack; before `login` is answered, it waits (unless it is
    /// the login itself).
    mutating func send(_ name: String, _ args: [JSONValue], as request: Pending, now: Instant, whenJoined: Bool = true) {
        switch stage {
        case .done, .loggingOut: return
        case .fetchingToken, .loggingIn, .relogging, .awaitingRelogin:
            if whenJoined { return waiting.append((name, args, request)) }
        case .joined: break
        }
        guard portal != nil, let ackID = portal!.socket.emit(name, args, wantsAck: true, now: now) else { return }
        pending[ackID] = (request, stage == .joined ? now : nil)
        flushPortal()
    }

    mutating func receiveAck(_ message: SocketIOMessage, now: Instant) {
        guard let ackID = message.ackId, let (request, sentAt) = pending.removeValue(forKey: ackID) else { return }
        let status = message.args.first?.stringValue
        let data = message.args.count > 1 ? message.args[1] : JSONValue.null
        guard status == "ok" || status == "success" else {
            return fail("OWT portal: \(request.name) refused: \(Self.words(data))")
        }
        if let sentAt, request.isTimed { events.append(.acknowledged(request: request.name, milliseconds: now.milliseconds(since: sentAt), sentAt: sentAt)) }
        switch request {
        case .login:
            do {
                let info = try OWTRoomInfo(json: data)
                room = info
                joined(ticket: info.reconnectionTicket, now: now)
                events.append(.joined(info))
                let queued = waiting
                waiting = []
                for entry in queued { send(entry.name, entry.args, as: entry.request, now: now) }
            } catch {
                fail("OWT portal: login answer: \(error)")
            }
        case .relogin:
            joined(ticket: data.stringValue, now: now)
            events.append(.relogged)
        case .refreshTicket:
            joined(ticket: data.stringValue, now: now)
            events.append(.ticketRefreshed)
        case .publish(let tag, let offer), .subscribe(let tag, let offer):
            guard let transportID = data["transportId"]?.stringValue, let sessionID = data["id"]?.stringValue else {
                return fail("OWT portal: \(request.name) answer without transportId and id: \(data.serialized)")
            }
            events.append(.accepted(tag, transportID: transportID, sessionID: sessionID))
            let signaling: JSONValue = .object(["type": "offer", "sdp": .string(offer)])
            send("soac", [.object(["id": .string(transportID), "signaling": signaling])], as: .soac, now: now)
        case .logout:
            portal?.socket.disconnect(now: now)
            flushPortal()
            if let id = portal?.id { outputs.append(.close(id)) }
            portal = nil
            stage = .done
            events.append(.loggedOut)
        case .soac, .unpublish, .unsubscribe, .text:
            break
        }
    }

    /// Joined (again): keeps the ticket and plans its refresh.
    private mutating func joined(ticket: String?, now: Instant) {
        stage = .joined
        if let ticket { reconnectionTicket = ticket }
        refreshAt = reconnectionTicket.flatMap(Self.ticketLifetime).map { lifetime in
            now + (lifetime > .seconds(120) ? lifetime - .seconds(60) : lifetime - .seconds(10))
        }
    }

    /// How long a reconnection ticket (base64 JSON with `notBefore` and `notAfter` in
    /// milliseconds) is good for, if it says and it is more than 10 s.
    static func ticketLifetime(_ ticket: String) -> Duration? {
        guard let bytes = Base64.decode(ticket), let json = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)),
              let notBefore = json["notBefore"]?.integerValue, let notAfter = json["notAfter"]?.integerValue,
              notAfter - notBefore > 10_000 else { return nil }
        return .milliseconds(notAfter - notBefore)
    }

    /// An error's data as words: the string itself, else its JSON.
    static func words(_ data: JSONValue) -> String {
        data.stringValue ?? data["message"]?.stringValue ?? data.serialized
    }

    private mutating func takeTag() -> OWTRequestTag {
        defer { nextTag += 1 }
        return nextTag
    }

    /// `{type, mid, ...extra}` for each audio and video section of `offer`.
    private static func tracks(of offer: String, extra: (MediaKind) -> KeyValuePairs<String, JSONValue>) throws(ParseError) -> [JSONValue] {
        let description = try SessionDescription.parse(offer)
        var tracks: [JSONValue] = []
        for media in description.media where media.kind == .audio || media.kind == .video {
            guard let mid = media.mid else { throw .invalid("offer's \(media.kind) section has no a=mid") }
            var members = [JSONValue.Member("type", .string("\(media.kind)")), JSONValue.Member("mid", .string(mid))]
            for (key, value) in extra(media.kind) { members.append(JSONValue.Member(key, value)) }
            tracks.append(.object(members))
        }
        guard !tracks.isEmpty else { throw .invalid("offer has no audio or video section") }
        return tracks
    }

    private static func json(_ candidate: TrickleCandidate) -> JSONValue {
        .object(["candidate": .string("a=" + candidate.candidate), "sdpMid": .string(candidate.mid),
                 "sdpMLineIndex": .integer(Int64(candidate.mLineIndex))])
    }
}
