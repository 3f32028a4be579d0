import RTP
import ICE
import Media
import PeerCore
import RTCBase
import SCTP
import SDP
import WebRTCTestKit

extension EncodedMediaFrame {
    /// The adapter from `Media`'s encoder output.
    init(_ frame: EncodedFrame) {
        self.init(
            codec: frame.codec, bytes: frame.bytes, isKeyframe: frame.isKeyframe,
            rtpTimestamp: frame.rtpTimestamp, captureTime: frame.captureTime, width: frame.width, height: frame.height)
    }
}

/// Everything a peer reported, sorted by kind.
struct EventLog {
    var frames: [String: [ReceivedFrame]] = [:]
    /// When each frame was drained (the `now` passed to `drain`), by mid.
    var drainedAt: [String: [Instant]] = [:]
    var phases: [PeerPhase: Instant] = [:]
    var failures: [PeerFailure] = []
    var keyframeRequests = 0
    var connected = false
    var closed = false
    var localCandidates: [Candidate] = []
    var dataChannel: [SctpEvent] = []

    mutating func drain(_ peer: Peer, now: Instant = .zero) {
        while let event = peer.pollEvent() {
            switch event {
            case .frame(let frame):
                frames[frame.mid, default: []].append(frame)
                drainedAt[frame.mid, default: []].append(now)
            case .phaseCompleted(let phase, let at): phases[phase] = at
            case .failed(let failure): failures.append(failure)
            case .keyframeRequested: keyframeRequests += 1
            case .connected: connected = true
            case .closed: closed = true
            case .localCandidate(let candidate, _): localCandidates.append(candidate)
            case .dataChannel(let event): dataChannel.append(event)
            case .gatheringComplete, .iceStateChanged: break
            }
        }
    }
}

/// An offerer and an answerer on a virtual network, negotiated through their SDP.
final class PeerPair {
    static let offererAddress = SocketAddress(ipv4: 10, 0, 0, 1, port: 5000)
    static let answererAddress = SocketAddress(ipv4: 10, 0, 0, 2, port: 6000)

    let network: VirtualNetwork
    let offerer: Peer
    let answerer: Peer
    var offererLog = EventLog()
    var answererLog = EventLog()

    init(
        offerer offered: [PeerTransceiver], answerer answering: [PeerTransceiver], network: VirtualNetwork = VirtualNetwork(),
        seed: UInt64 = 7, offererMtu: Int = PeerConfiguration.defaultMtu, iceOptions: IceAgentOptions = IceAgentOptions(),
        dataChannels: Bool = false
    ) throws {
        self.network = network
        var offererConfiguration = PeerConfiguration(role: .offerer, transceivers: offered, localAddresses: [Self.offererAddress],
                                                     iceOptions: iceOptions, seed: seed, mtu: offererMtu)
        offererConfiguration.dataChannels = dataChannels
        offerer = try Peer(configuration: offererConfiguration, now: network.now)
        var answererConfiguration = PeerConfiguration(
            role: .answerer, transceivers: answering, localAddresses: [Self.answererAddress], iceOptions: iceOptions, seed: seed)
        answererConfiguration.dataChannels = dataChannels
        answerer = try Peer(configuration: answererConfiguration, now: network.now)
        network.attach(offerer, at: [Self.offererAddress])
        network.attach(answerer, at: [Self.answererAddress])
        let offer = try offerer.createOffer(now: network.now)
        network.progress(for: .milliseconds(20))
        try answerer.setRemoteOffer(offer, now: network.now)
        let answer = try answerer.createAnswer(now: network.now)
        network.progress(for: .milliseconds(20))
        try offerer.setRemoteAnswer(answer, now: network.now)
    }

    /// Runs until both peers are connected (DTLS done) or `limit` of virtual time passes.
    @discardableResult
    func connect(limit: Duration = .seconds(10)) -> Bool {
        network.progress(until: { [self] in
            drain()
            return offererLog.connected && answererLog.connected
        }, limit: network.now + limit)
    }

    func drain() {
        offererLog.drain(offerer, now: network.now)
        answererLog.drain(answerer, now: network.now)
    }

    /// Sends `frames` from the offerer on `mid`, one every `interval`, and runs the
    /// network `settle` longer.
    func send(_ frames: [EncodedMediaFrame], mid: String, interval: Duration, settle: Duration = .milliseconds(500)) -> Int {
        var accepted = 0
        for frame in frames {
            if offerer.send(frame, mid: mid, now: network.now) { accepted += 1 }
            network.progress(for: interval)
            drain()
        }
        network.progress(for: settle)
        drain()
        return accepted
    }
}

enum MediaFixtures {
    /// `count` frames of the test pattern at 320x180, 30 fps, encoded with `codec`.
    static func video(_ codec: Codec, count: Int) throws -> [EncodedMediaFrame] {
        let encoder = try VideoEncoderConfig.defaults(codec: codec, resolution: .p180).makeEncoder()
        var source = VideoSource()
        var frames: [EncodedMediaFrame] = []
        for index in 0..<count {
            let raw = source.frame(index: index, resolution: .p180, captureTime: Instant(nanoseconds: Int64(index) * 33_333_333))
            if let encoded = try encoder.encode(raw) { frames.append(EncodedMediaFrame(encoded)) }
        }
        return frames
    }

    /// `count` 20 ms Opus packets of the marker tones.
    static func audio(count: Int) throws -> [EncodedMediaFrame] {
        let encoder = try OpusAudioEncoder()
        let source = AudioSource()
        return try (0..<count).map { index in
            EncodedMediaFrame(try encoder.encode(source.frame(index: index, captureTime: Instant(nanoseconds: Int64(index) * 20_000_000))))
        }
    }
}

extension PeerTransceiver {
    static func video(_ mid: String = "1", _ direction: MediaDirection = .sendrecv, codecs: [CodecCapability] = [.vp8(), .vp9(), .h264()]) -> PeerTransceiver {
        PeerTransceiver(mid: mid, kind: .video, direction: direction, codecs: codecs)
    }

    static func audio(_ mid: String = "0", _ direction: MediaDirection = .sendrecv) -> PeerTransceiver {
        PeerTransceiver(mid: mid, kind: .audio, direction: direction, codecs: [.opus()])
    }
}
