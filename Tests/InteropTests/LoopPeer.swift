import RTP
import EventLoop
import Foundation
import Media
import PeerCore
import RTCBase
import SDP

/// Test pattern frames (VP8 at 320x180 unless told otherwise), encoded as they are asked for.
final class PatternVideo {
    private let encoder: any VideoEncoder
    private let codec: Codec
    private let resolution: Resolution
    private var source = VideoSource()
    private var index = 0

    init(codec: Codec = .vp8, resolution: Resolution = .p180) throws {
        encoder = try VideoEncoderConfig.defaults(codec: codec, resolution: resolution).makeEncoder()
        self.codec = codec
        self.resolution = resolution
    }

    func requestKeyframe() { encoder.requestKeyframe() }

    func next(at now: Instant) throws -> EncodedMediaFrame? {
        let raw = source.frame(index: index, resolution: resolution, captureTime: now)
        index += 1
        guard let encoded = try encoder.encode(raw) else { return nil }
        return EncodedMediaFrame(codec: codec, bytes: encoded.bytes, isKeyframe: encoded.isKeyframe, rtpTimestamp: encoded.rtpTimestamp,
                                 captureTime: encoded.captureTime, width: encoded.width, height: encoded.height)
    }
}

/// A `Peer` on a loopback UDP socket, driven on the loop.
final class LoopPeer {
    let loop: EventLoop
    let socket: UDPSocket
    let peer: Peer
    var events: [PeerEvent] = []
    /// When each of `events` came out of the peer (the loop's clock).
    private(set) var eventTimes: [Instant] = []
    private var timer: TimerID?
    /// Percent of the RTP and RTCP datagrams (first byte 128-191, RFC 7983) it drops on
    /// receipt once connected: media loss without breaking ICE or DTLS.
    var mediaLossPct = 0.0
    private(set) var mediaDropped = 0
    private var lossGenerator = SeededGenerator(seed: 0x1055)

    init(loop: EventLoop, role: PeerRole, direction: MediaDirection, seed: UInt64, video: CodecCapability = .vp8(),
         iceServers: [IceServer] = [], relayOnly: Bool = false, dataChannels: Bool = false) throws {
        self.loop = loop
        socket = try UDPSocket(loop: loop, bindTo: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        var configuration = PeerConfiguration(
            role: role,
            transceivers: [PeerTransceiver(mid: "0", kind: .audio, direction: direction, codecs: [.opus()]),
                           PeerTransceiver(mid: "1", kind: .video, direction: direction, codecs: [video])],
            localAddresses: [socket.localAddress], iceServers: iceServers, relayOnly: relayOnly, seed: seed)
        configuration.dataChannels = dataChannels
        peer = try Peer(configuration: configuration, now: loop.now())
        socket.onDatagram = { [unowned self] bytes, from, _ in
            if self.mediaLossPct > 0, self.connected, let first = bytes.first, (128...191).contains(first),
                Double.random(in: 0..<100, using: &self.lossGenerator) < self.mediaLossPct {
                self.mediaDropped += 1
                return
            }
            self.peer.handle(borrowed: bytes, from: from, to: self.socket.localAddress, now: self.loop.now())
            self.drive()
        }
    }

    func drive() {
        while let transmit = peer.pollTransmit() { socket.send(transmit.payload, to: transmit.destination) }
        while let event = peer.pollEvent() {
            events.append(event)
            eventTimes.append(loop.now())
        }
        if let timer { loop.cancel(timer) }
        timer = peer.pollTimeout().map { deadline in
            loop.schedule(at: deadline) { [unowned self] in
                self.timer = nil
                self.peer.handleTimeout(now: self.loop.now())
                self.drive()
            }
        }
    }

    var connected: Bool { events.contains { if case .connected = $0 { true } else { false } } }
    var failure: PeerEvent? { events.first { if case .failed = $0 { true } else { false } } }
    /// Sends `frames` frames of the test pattern on mid "1" at about 30 fps, answering each
    /// keyframe request the other side made; returns how many the peer took.
    func sendPattern(_ codec: Codec, size: Resolution, frames: Int) throws -> Int {
        let video = try PatternVideo(codec: codec, resolution: size)
        var sent = 0
        var keyframesAnswered = 0
        for _ in 0..<frames {
            if keyframeRequests > keyframesAnswered {
                keyframesAnswered = keyframeRequests
                video.requestKeyframe()
            }
            if let frame = try video.next(at: loop.now()), peer.send(frame, mid: "1", now: loop.now()) { sent += 1 }
            drive()
            _ = loop.run(until: { false }, timeout: .milliseconds(33))
        }
        return sent
    }

    var keyframeRequests: Int { events.filter { if case .keyframeRequested = $0 { true } else { false } }.count }
    var videoFramesReceived: Int { events.filter { if case .frame(let frame) = $0 { frame.kind == .video } else { false } }.count }
}
