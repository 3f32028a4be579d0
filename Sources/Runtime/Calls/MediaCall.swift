import RTP
import EventLoop
import ICE
import Impairment
import Media
import PeerCore
import Report
import Scenario
import RTCBase
import SDP

/// The WebRTC half every media driver shares: a `Peer` on its `DatagramHost`, media from the
/// worker's shared encoders once connected, received streams observed, and at the end the
/// record's phases and streams. Drivers add their signaling (a room, SRS, WHIP, Janus).
final class MediaCall {
    struct Media {
        var video: SharedEncoder.Track?
        var audio: SharedEncoder.Track?
        /// What this side does with each kind: send and receive (calls, echo), send only
        /// (publishers), receive only (players).
        var direction: MediaDirection
        /// Fully decode what this peer receives (the sampled streams, `run.decode_sample_pct`).
        var decode = false
        /// How long after setup each kind this call receives may take to arrive
        /// (`media.receive_timeout_s`).
        var receiveTimeout: Duration = .seconds(5)
        /// End the call as failed as soon as its connection is lost (`connectionLost`),
        /// checked every second, instead of at its planned end: a peer that will
        /// reconnect (`groups[].reconnect`) must know at once.
        var endsWhenLost = false
        /// RTX for the video it sends (`media.video.rtx`).
        var rtx: VideoSettings.Rtx = .auto
        /// The video it receives is expected at the size of `video` (the other side is an
        /// rtcswarm peer sending that, or a player's scenario states it); false when the
        /// sender is not rtcswarm's (an external or browser partner): the first keyframe's
        /// size is the expected one.
        var expectsOwnVideoSize = true
        /// What the sender of what it receives plans: size changes (`video.resolution`:
        /// resolution survival follows them, each switch is timed) and mutes.
        var videoSizeChanges: [ReceivedStreamObserver.SizeChange] = []
        var mutes: [MuteObserver.Window] = []
    }

    let loop: EventLoop
    let recorder: RunRecorder
    private let fanout: MediaFanout
    let media: Media
    private(set) var host: DatagramHost<Peer>?
    /// What it sends, from the worker's shared encoders.
    private lazy var sending = MediaSending(video: media.video, audio: media.audio, fanout: fanout) { [weak self] frame, kind in
        self?.send(frame, kind: kind)
    }
    private(set) var observers: [String: ReceivedStreamObserver] = [:]
    /// The same observers by the SSRC of each frame they were given, searched in order (a
    /// call receives a stream or two): looking up every frame by mid hashed a string, 1.6 %
    /// of a player's CPU through SRS.
    private var observersBySsrc: [(ssrc: UInt32, observer: ReceivedStreamObserver)] = []
    /// Its running receive totals' token in the recorder, while the call runs.
    private var liveToken: Int?
    /// Its own per-second figures (`MediaCall+Live.swift`), from the same totals.
    var series = CallSeries(start: 0)
    private(set) var isConnected = false
    /// The scenario's data channels, opened once connected (`groups[].data`).
    var dataChannels: DataChannelCall?
    /// Its channels' records, kept as `finish` stops them.
    private(set) var dataRecords: [DataChannelRecord]?
    var onConnected: () -> Void = {}
    var onFailed: (PeerFailure) -> Void = { _ in }
    /// The remote sent close_notify.
    var onRemoteClosed: () -> Void = {}
    /// A local candidate learned after the description was made (TURN relays, STUN
    /// reflexive): the driver trickles it to the other side; nil when gathering is over.
    var onLocalCandidate: (_ candidate: String?, _ mid: String) -> Void = { _, _ in }

    init(loop: EventLoop, recorder: RunRecorder, fanout: MediaFanout, media: Media) {
        self.loop = loop
        self.recorder = recorder
        self.fanout = fanout
        self.media = media
    }

    var peer: Peer? { host?.machine }

    /// Creates the peer once its role is known; `negotiate` runs the offer/answer step.
    func start(role: PeerRole, localAddress: SocketAddress, impairment: (send: ImpairmentSchedule?, receive: ImpairmentSchedule?),
               ice: ICEConfiguration, seed: UInt64, negotiate: (Peer) throws -> Void) throws {
        let host = try DatagramHost<Peer>(loop: loop, bindTo: localAddress, send: impairment.send, receive: impairment.receive,
                                runStart: recorder.runStart, seed: seed)
        if liveToken == nil { series = CallSeries(start: recorder.offset(loop.now()) / 1000) }
        liveToken = liveToken ?? recorder.addLive { [weak self] in self?.sampleLive() ?? ReceiveTotals() }
        var transceivers: [PeerTransceiver] = []
        if media.audio != nil {
            transceivers.append(PeerTransceiver(mid: "0", kind: .audio, direction: media.direction, codecs: [.opus()]))
        }
        if case .video(let codec, _, _, _, _, _) = media.video {
            var capability: CodecCapability = switch codec {
            case .h264: .h264()
            case .h265: .h265()
            case .av1: .av1()
            case .vp9: .vp9()
            default: .vp8()
            }
            if media.rtx == .off { capability.rtxPayloadType = nil }
            transceivers.append(PeerTransceiver(mid: "1", kind: .video, direction: media.direction, codecs: [capability]))
        }
        var iceOptions = IceAgentOptions()
        iceOptions.profile = ice.profile
        var configuration = PeerConfiguration(role: role, transceivers: transceivers, localAddresses: [host.socket.localAddress],
                                              iceServers: ice.servers, relayOnly: ice.relayOnly, iceOptions: iceOptions, seed: seed,
                                              rtxFallback: media.rtx == .auto)
        configuration.dataChannels = dataChannels != nil
        // Undecoded streams are read only at their keyframes (`ReceivedStreamObserver`).
        configuration.deltaFrameBytes = media.decode
        let peer = try Peer(configuration: configuration, now: loop.now())
        host.onEvent = { [weak self] event in self?.peerEvent(event) }
        self.host = host
        try negotiate(peer)
        host.attach(peer)
    }

    func drive() { host?.drive() }

    private func peerEvent(_ event: PeerEvent) {
        switch event {
        case .connected:
            guard !isConnected, let peer else { return }
            isConnected = true
            sending.start(peer, sent: peer.stats(now: loop.now()).sent)
            dataChannels?.connected(self)
            onConnected()
        case .frame(let frame):
            let captured = fanout.senders.captureTime(ssrc: frame.ssrc, rtpTimestamp: frame.rtpTimestamp)
            observer(for: frame).observe(frame, captureTime: captured)
        case .localCandidate(let candidate, let mid):
            onLocalCandidate(candidate.description, mid)
        case .gatheringComplete:
            onLocalCandidate(nil, peer?.sections.first?.mid ?? "0")
        case .keyframeRequested:
            sending.requestKeyframe()
        case .failed(let failure):
            onFailed(failure)
        case .dataChannel(let event):
            dataChannels?.handle(event)
        case .closed:
            if isConnected { onRemoteClosed() }
        default:
            break
        }
    }

    /// A timeline action on what this call sends.
    func apply(_ action: TimelineAction) { sending.apply(action) }

    private func send(_ frame: PacketizedFrame, kind: MediaKind) {
        guard isConnected, let host, let peer = host.machine else { return }
        _ = peer.send(frame, kind: kind, now: loop.now())
        host.drive()
    }

    private func observer(for frame: ReceivedFrame) -> ReceivedStreamObserver {
        // By index: iterating the entries copied each one (a retain and a release per frame).
        for index in observersBySsrc.indices where observersBySsrc[index].ssrc == frame.ssrc {
            return observersBySsrc[index].observer
        }
        if let existing = observers[frame.mid] {
            observersBySsrc.append((frame.ssrc, existing))
            return existing
        }
        var published: Resolution?
        if media.expectsOwnVideoSize, case .video(_, let size, _, _, _, _) = media.video { published = size }
        let observer = ReceivedStreamObserver(codec: frame.codec, publishedResolution: frame.codec.isVideo ? published : nil,
                                              frameRate: frameRate(of: frame.codec),
                                              decode: media.decode, stalls: loop.stalls,
                                              sizeChanges: frame.codec.isVideo ? media.videoSizeChanges : [], mutes: media.mutes)
        observers[frame.mid] = observer
        observersBySsrc.append((frame.ssrc, observer))
        return observer
    }

    /// Frames a second of what is received in `codec`: the video rate this call sends (the
    /// scenario's), and 50 for Opus (20 ms packets).
    private func frameRate(of codec: Codec) -> Double {
        if codec.isVideo, case .video(_, _, let fps, _, _, _) = media.video { return Double(fps) }
        return codec.isVideo ? 30 : 50
    }

    /// Stops sending media; the call stays up and goes on receiving.
    func stopSending() { sending.stop() }

    /// Stops media, reads the figures, closes the peer (DTLS close_notify) and its socket.
    /// `setupFrom`: where `setup_ms` starts (the peer's start, or its partner's arrival).
    func finish(setupFrom: Instant?) -> (phases: [String: Double], streams: [StreamRecord], sent: [SentStreamRecord], candidatePair: String?) {
        stopSending()
        dataRecords = dataChannels?.finish()
        if let liveToken { recorder.endLive(liveToken) }
        liveToken = nil
        var phases: [String: Double] = [:]
        var streams: [StreamRecord] = []
        var sent: [SentStreamRecord] = []
        let now = loop.now()
        if let peer {
            peer.releaseHeldFrames(now: now)
            host?.drive()
            let stats = peer.stats(now: now)
            let timeline = stats.timeline
            phases["signaling_ms"] = timeline.signalingMs
            phases["ice_ms"] = timeline.iceMs
            phases["dtls_ms"] = timeline.dtlsMs
            phases["first_packet_ms"] = timeline.firstPacketMs
            phases["first_frame_ms"] = timeline.firstFrameMs
            if let ice = timeline.iceConnected, let dtls = timeline.dtlsConnected, let setupFrom {
                phases["setup_ms"] = max(ice, dtls).milliseconds(since: setupFrom)
            }
            if let rtt = stats.roundTripTime { phases["rtt_ms"] = rtt.milliseconds }
            let stalled = peer.framesStalled(now: now)
            for received in stats.received {
                let observer = observers[received.mid]
                    ?? ReceivedStreamObserver(codec: received.codec, publishedResolution: nil, frameRate: frameRate(of: received.codec))
                streams.append(observer.record(received, framesStalled: stalled[received.mid] ?? 0))
            }
            sent = stats.sent.map { stream in
                SentStreamRecord(kind: stream.codec.isVideo ? "video" : "audio", codec: stream.codec.description, ssrc: stream.ssrc,
                                 packetsSent: Int(stream.counters.packets), framesSent: stream.frames,
                                 nacksReceived: stream.counters.nacksReceived, retransmissions: stream.counters.retransmissions,
                                 rtxRetransmissions: stream.counters.rtxRetransmissions, rtxIneffective: stream.counters.rtxIneffective,
                                 recovery: stream.counters.recovery?.rawValue)
            }
        }
        let pair = peer?.selectedPair.map { "\($0.local.type)" }
        recorder.countSocketDrops(host?.socketDrops ?? 0)
        host?.close()
        return (phases, streams, sent, pair)
    }
}
