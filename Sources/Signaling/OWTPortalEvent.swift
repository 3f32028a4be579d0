import RTCBase

/// Names one `publish` or `subscribe` of an `OWTPortalClient` until the portal names its
/// transport.
public typealias OWTRequestTag = Int

/// What an `OWTPortalClient` tells its owner.
public enum OWTPortalEvent: Hashable, Sendable {
    /// A `login`, `relogin`, `publish` or `subscribe` was answered `ok`, this long after
    /// it went out (after the connection was up, for the login), and when that was: the
    /// monotonic instant the others' notifications of a login are timed from.
    case acknowledged(request: String, milliseconds: Double, sentAt: Instant)
    /// `login` succeeded: who we are, the room's streams and participants.
    case joined(OWTRoomInfo)
    /// The portal took a `publish` or `subscribe`: its transport and the session id
    /// (publication or subscription) that `ready`, `unpublish` and `unsubscribe` use.
    case accepted(OWTRequestTag, transportID: String, sessionID: String)
    /// `progress {status: "soac", data: {type: "answer"}}` for a transport.
    case answer(transportID: String, sdp: String)
    /// `progress {status: "soac", data: {type: "candidate"}}`: the attribute text.
    case remoteCandidate(transportID: String, candidate: String)
    /// `progress {status: "ready"}`: media flows for this session.
    case ready(transportID: String, sessionID: String)
    case streamAdded(OWTStreamInfo)
    /// `stream {status: "update"}`: which field changed (`audio.status`, `video.layout`, `.`).
    case streamUpdated(id: String, field: String)
    case streamRemoved(id: String)
    case participantJoined(OWTParticipant)
    case participantLeft(id: String)
    /// A `text` notification: sender, addressee (`all` or an id) and the message.
    case text(from: String, to: String, message: String)
    /// The portal connection broke after login; a `relogin` follows shortly.
    case reconnecting(reason: String)
    /// `relogin` with the reconnection ticket succeeded on a new connection.
    case relogged
    /// `refreshReconnectionTicket` brought a new ticket.
    case ticketRefreshed
    /// `logout` done and the connection closed.
    case loggedOut
    /// Over: the portal's words (`OWT portal: publish refused: …`) or what broke.
    case failed(String)
}
