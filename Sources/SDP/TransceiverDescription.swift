/// The SSRCs and ids of a local sending track, written as `a=msid`, `a=ssrc` and
/// `a=ssrc-group:FID` lines (RFC 8830 2, RFC 5576 4, RFC 4588 8.6).
public struct SenderDescription: Sendable, Hashable {
    public var ssrc: UInt32
    /// SSRC of the RTX stream, grouped with `ssrc` by `a=ssrc-group:FID` when RTX is used.
    public var rtxSSRC: UInt32?
    /// RTCP CNAME (RFC 3550 6.5.1), the same for all tracks of a peer.
    public var cname: String
    public var streamID: String
    public var trackID: String

    public init(ssrc: UInt32, rtxSSRC: UInt32? = nil, cname: String, streamID: String, trackID: String) {
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
        self.cname = cname
        self.streamID = streamID
        self.trackID = trackID
    }
}

/// One local transceiver to offer (JSEP RFC 9429 5.2.1): kind, mid, direction, codecs
/// in order of preference and, when it sends, its sender.
public struct TransceiverDescription: Sendable, Hashable {
    public var mid: String
    public var kind: MediaKind
    public var direction: MediaDirection
    public var codecs: [CodecCapability]
    /// Required when `direction` sends; may be given for receive-only sections too
    /// (aiortc does so), then its SSRC lines are written as well.
    public var sender: SenderDescription?

    public init(mid: String, kind: MediaKind, direction: MediaDirection, codecs: [CodecCapability], sender: SenderDescription? = nil) {
        self.mid = mid
        self.kind = kind
        self.direction = direction
        self.codecs = codecs
        self.sender = sender
    }
}

/// The local ICE and DTLS parameters and session-wide options of a description.
public struct TransportDescription: Sendable, Hashable {
    public var iceUfrag: String
    public var icePwd: String
    /// The SHA-256 fingerprint of the local DTLS certificate (RFC 8122 5).
    public var fingerprint: Fingerprint
    /// Gathered candidates, written into every accepted section (RFC 8839 5.1).
    public var candidates: [Candidate]
    /// `a=ice-lite` at session level (RFC 8839 5.3).
    public var iceLite: Bool
    /// `a=ice-options:trickle` (RFC 8840 4.1.1).
    public var trickle: Bool
    /// `a=end-of-candidates` after the candidates (RFC 8840 4.3).
    public var endOfCandidates: Bool
    /// `a=rtcp-rsize` (RFC 5506 5): offered when true, answered when offered and true.
    public var rtcpRsize: Bool
    /// Header extension URIs to offer (`ExtMap.sdesMid`...), ids 1, 2, ... in order; an
    /// answer accepts the offered ones that are in this list.
    public var headerExtensions: [String]
    /// The `o=` line's session id (a decimal below 2^63, RFC 9429 5.2.1) and version.
    public var sessionID: String
    public var sessionVersion: String

    public init(
        iceUfrag: String, icePwd: String, fingerprint: Fingerprint, candidates: [Candidate] = [],
        iceLite: Bool = false, trickle: Bool = true, endOfCandidates: Bool = false, rtcpRsize: Bool = true,
        headerExtensions: [String] = [ExtMap.sdesMid, ExtMap.absSendTime, ExtMap.transportCC],
        sessionID: String, sessionVersion: String = "2"
    ) {
        self.iceUfrag = iceUfrag
        self.icePwd = icePwd
        self.fingerprint = fingerprint
        self.candidates = candidates
        self.iceLite = iceLite
        self.trickle = trickle
        self.endOfCandidates = endOfCandidates
        self.rtcpRsize = rtcpRsize
        self.headerExtensions = headerExtensions
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
    }

    /// A random session id below 2^63, as JSEP asks (RFC 9429 5.2.1).
    public static func randomSessionID(using generator: inout some RandomNumberGenerator) -> String {
        String(UInt64.random(in: 1...UInt64(Int64.max), using: &generator))
    }
}

/// A description that cannot be built from what was asked.
public struct SDPBuildError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
