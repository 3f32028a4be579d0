import RTCBase

/// What an adapter tells the runner.
public enum CallSetupEvent: Hashable, Sendable {
    /// The server's answer to our offer: the call is set up.
    case answer(String)
    /// The server's offer (Janus subscriber, WHEP 406): reply with `answer(_:now:)`.
    case offer(String)
    /// ICE servers the server suggested (WHIP/WHEP `Link: rel="ice-server"`, RFC 9725 4.6).
    case iceServers([IceServerConfig])
    /// The server's ICE credentials and candidates after an ICE restart (WHIP/WHEP: an
    /// sdpfrag; Janus: its whole answer to the restart offer).
    case iceRestarted(String)
    /// Something the server reported that the runner may log: Janus `webrtcup`,
    /// `media`, `slowlink`, `hangup`; a trickle the server refused.
    case notice(String)
    /// A signaling step the adapter timed, in milliseconds, kept as the peer's phase of
    /// that name (OWT: `login_ms`, `publish_ack_ms`, `subscribe_ack_ms`).
    case timing(String, milliseconds: Double)
    /// What an OWT portal told this participant about its conference (its login and room
    /// info, its publication's `ready`, `stream add`, `participant` join and leave, `text`),
    /// for the notification figures and the texts of any role.
    case conference(OWTPortalEvent)
    /// The call could not be set up, or the server ended it.
    case failed(CallSetupError)
    /// The teardown is over (or there was nothing to tear down).
    case closed
}
