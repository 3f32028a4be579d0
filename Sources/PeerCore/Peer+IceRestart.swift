import ICE
import RTCBase
import SDP

/// ICE restart (RFC 8445 9; JSEP RFC 9429 4.1.7, 5.2.1 and 5.3.1): the offerer takes new
/// ICE credentials and sends its description again with them; the answerer, seeing a new
/// ufrag, restarts too and answers with new ones of its own. Only the credentials change:
/// sections, codecs, SSRCs and the DTLS association stay, and media keeps going over the
/// old pair until checks with the new credentials select one (RFC 8445 9: "the selected
/// pair ... continues to be used").
extension Peer {
    public struct IceRestart: Sendable, Equatable {
        /// When this side restarted (the offerer: its `restartIce`; the answerer: the offer).
        public var startedAt: Instant
        /// When a pair was selected with the new credentials.
        public var connectedAt: Instant?
        /// Packets the received streams had lost (RFC 3550 A.3) at the start and when connected again.
        public var lostAtStart: Int64
        public var lostAtConnected: Int64?
    }

    /// Offerer: restarts ICE with new credentials and returns the offer that carries them.
    public func restartIce(now: Instant) throws(PeerError) -> String {
        guard configuration.role == .offerer, let local = localDescription, remoteDescription != nil, !isClosed else {
            throw PeerError("an ICE restart needs the offerer of a negotiated, open call")
        }
        let credentials = beginIceRestart(now: now)
        let offer = Self.replacingCredentials(in: local, with: credentials)
        localDescription = offer
        flush(now: now)
        return offer
    }

    /// Answerer: an offer after the first one. A new ufrag restarts ICE: the remote's
    /// new credentials and candidates are taken, and the answer carries our new ones.
    public func acceptIceRestart(_ offer: String, now: Instant) throws(PeerError) -> String {
        guard configuration.role == .answerer, let local = localDescription, let previous = remoteDescription, !isClosed else {
            throw PeerError("an ICE restart offer needs the answerer of a negotiated, open call")
        }
        let remote = try Self.parse(offer, what: "offer")
        guard try Self.credentials(of: remote).ufrag != Self.credentials(of: try Self.parse(previous, what: "offer")).ufrag else {
            throw PeerError("the new offer keeps the old ice-ufrag: it is no ICE restart (RFC 8445 9), and other renegotiation is not supported")
        }
        let credentials = beginIceRestart(now: now)
        try applyRestartTransport(remote)
        remoteDescription = offer
        let answer = Self.replacingCredentials(in: local, with: credentials)
        localDescription = answer
        flush(now: now)
        return answer
    }

    /// Offerer: the answer to `restartIce`'s offer, with the remote's new credentials (the
    /// answerer restarts too, so an answer keeping the old ufrag is refused: RFC 8445 9,
    /// RFC 8839 4.4.1.1.1).
    public func applyIceRestartAnswer(_ answer: String, now: Instant) throws(PeerError) {
        guard configuration.role == .offerer, iceRestart != nil, let previous = remoteDescription, !isClosed else {
            throw PeerError("no ICE restart is waiting for an answer")
        }
        let remote = try Self.parse(answer, what: "answer")
        guard try Self.credentials(of: remote).ufrag != Self.credentials(of: try Self.parse(previous, what: "answer")).ufrag else {
            throw PeerError("the ICE restart answer keeps the old ice-ufrag: the answerer did not restart (RFC 8445 9)")
        }
        try applyRestartTransport(remote)
        remoteDescription = answer
        flush(now: now)
    }

    /// New local credentials from the peer's seeded generator; every pair starts over.
    private func beginIceRestart(now: Instant) -> IceCredentials {
        let credentials = IceCredentials.random(using: &generator)
        ice.restart(localCredentials: credentials, now: now)
        iceRestart = IceRestart(startedAt: now, lostAtStart: packetsLost(now: now))
        return credentials
    }

    /// The remote's new credentials and candidates (RFC 8839 5.4: both change on a restart).
    private func applyRestartTransport(_ remote: SessionDescription) throws(PeerError) {
        takeRemoteIce(try Self.credentials(of: remote), from: remote)
    }

    /// A pair was selected: the restart, if one is under way, is connected again.
    func iceRestartSelectedPair(now: Instant) {
        guard iceRestart != nil, iceRestart?.connectedAt == nil, ice.remoteCredentials != nil else { return }
        iceRestart?.connectedAt = now
        iceRestart?.lostAtConnected = packetsLost(now: now)
    }

    private func packetsLost(now: Instant) -> Int64 {
        stats(now: now).received.reduce(0) { $0 + max(0, Int64($1.rtp.packetsLost)) }
    }

    private static func credentials(of description: SessionDescription) throws(PeerError) -> (ufrag: String, pwd: String) {
        guard let section = description.media.first(where: { !$0.isRejected }), let credentials = description.iceCredentials(of: section) else {
            throw PeerError("the description has no a=ice-ufrag/a=ice-pwd")
        }
        return credentials
    }

    /// `sdp` with every `a=ice-ufrag` and `a=ice-pwd` (RFC 8839 5.4) set to `credentials`.
    static func replacingCredentials(in sdp: String, with credentials: IceCredentials) -> String {
        sdp.split(separator: "\r\n", omittingEmptySubsequences: false).map { line in
            if line.hasPrefix("a=ice-ufrag:") { return "a=ice-ufrag:\(credentials.ufrag)" }
            if line.hasPrefix("a=ice-pwd:") { return "a=ice-pwd:\(credentials.pwd)" }
            return String(line)
        }.joined(separator: "\r\n")
    }
}
