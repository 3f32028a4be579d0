import DTLS
import ICE
import RTCBase
import SDP

/// Which side of offer/answer a `Peer` plays (JSEP RFC 9429 5.2, 5.3).
public enum PeerRole: String, Sendable, Hashable {
    /// Creates the offer; ICE controlling (RFC 8445 6.1.1).
    case offerer
    /// Answers a remote offer; ICE controlled unless the offerer is ice-lite.
    case answerer
}

/// One local media section: kind, direction and codecs in order of preference.
public struct PeerTransceiver: Sendable, Hashable {
    /// The mid offered; an answerer takes the offer's mid instead.
    public var mid: String
    public var kind: MediaKind
    public var direction: MediaDirection
    /// Local codecs (SDP's `CodecCapability.vp8()`, `.h264()`, `.opus()`...), most
    /// preferred first.
    public var codecs: [CodecCapability]

    public init(mid: String, kind: MediaKind, direction: MediaDirection, codecs: [CodecCapability]) {
        self.mid = mid
        self.kind = kind
        self.direction = direction
        self.codecs = codecs
    }
}

/// A STUN or TURN server for ICE (RFC 8445 5.1.1.2, RFC 8656).
public enum IceServer: Sendable, Hashable {
    case stun(SocketAddress)
    case turn(SocketAddress, username: String, password: String)
}

/// Everything a `Peer` is built from. The driver owns sockets: `localAddresses` are the
/// bound addresses of its UDP sockets, the only host candidates offered.
public struct PeerConfiguration: Sendable {
    public var role: PeerRole
    public var transceivers: [PeerTransceiver]
    /// Bound socket addresses; never gathered from interfaces (TARGETS.md loopback trap).
    public var localAddresses: [SocketAddress]
    public var iceServers: [IceServer]
    /// Only relayed candidates are offered and paired (the "relay" transport policy).
    public var relayOnly: Bool
    /// ICE agent tuning (pacing, nomination, consent); its `seed` and `relayOnly` are
    /// set from this configuration.
    public var iceOptions: IceAgentOptions
    public var certificate: DtlsCertificate
    /// Seeds every random choice: ICE credentials and tie-breaker, SSRCs, sequence
    /// numbers, RTCP jitter. Two peers with one seed still differ by role.
    public var seed: UInt64
    /// How much longer than the longest resend seen a complete frame of a NACKed stream
    /// may wait for an older incomplete one, when that beats the NACK resend window
    /// (`Peer+Receive.frameWait`, METRICS.md frame loss).
    public var frameWaitMargin: Duration
    /// The RTP payload budget: `mtu` minus RTP header, RTX and SRTP tag overhead.
    public var mtu: Int
    /// Resend plainly once a receiver proves to discard RTX (`SendStream`, the scenario's
    /// `media.video.rtx: auto`); false keeps RTX whatever happens (`on`).
    public var rtxFallback: Bool
    public static let defaultMtu = 1200
    /// Data channels (RFC 8841): an offerer offers a data channel section, an answerer
    /// accepts an offered one, and SCTP runs over the DTLS of the media; false declines.
    public var dataChannels = false
    /// Whether received frames other than keyframes carry their bytes (`ReceivedFrame.data`):
    /// a receiver that decodes nothing reads only keyframes (their size), and false spares
    /// it copying every payload into a frame (`FrameAssembler.deltaFrameBytes`).
    public var deltaFrameBytes = true

    public init(
        role: PeerRole, transceivers: [PeerTransceiver], localAddresses: [SocketAddress],
        iceServers: [IceServer] = [], relayOnly: Bool = false, iceOptions: IceAgentOptions = IceAgentOptions(),
        certificate: DtlsCertificate = .shared, seed: UInt64, frameWaitMargin: Duration = .milliseconds(50),
        mtu: Int = PeerConfiguration.defaultMtu, rtxFallback: Bool = true
    ) {
        self.role = role
        self.transceivers = transceivers
        self.localAddresses = localAddresses
        self.iceServers = iceServers
        self.relayOnly = relayOnly
        self.iceOptions = iceOptions
        self.certificate = certificate
        self.seed = seed
        self.frameWaitMargin = frameWaitMargin
        self.mtu = mtu
        self.rtxFallback = rtxFallback
    }
}
