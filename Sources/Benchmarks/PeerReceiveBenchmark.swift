import PeerCore
import RTCBase
import RTP
import SDP
import STUN

/// A player's work per received packet inside a worker, socket aside: two `Peer`s
/// connected in memory, the sender's datagrams of a 640x360-sized H.264 stream at 30 fps
/// (a 40 KB keyframe every 2 s, 3 KB frames between, about 900 kbit/s, as SRS forwards
/// srs-bench's file) and Opus at 50 packets a second recorded first, then handed to the
/// receiver as `DatagramHost` hands them: `handle(borrowed:)`, then its transmits, events
/// and next deadline, its timer run when due. Under callgrind it counts the same
/// instructions every run (CONTRIBUTING.md), so a change of a few percent shows.
struct PeerReceiveBenchmark {
    var seconds = 60
    /// As a player whose streams are not decoded (most of a run's, `run.decode_sample_pct`):
    /// only keyframes carry their bytes (`PeerConfiguration.deltaFrameBytes`).
    var deltaFrameBytes = false

    private static let senderAddress = SocketAddress(ipv4: 10, 0, 0, 1, port: 5000)
    private static let receiverAddress = SocketAddress(ipv4: 10, 0, 0, 2, port: 6000)

    func run() throws {
        let start = Instant(nanoseconds: 1_000_000_000)
        let (sender, receiver) = try connectedPair(now: start)
        var now = start + .seconds(1)
        var datagrams: [(at: Instant, bytes: [UInt8])] = []
        var framesSent = 0
        for tick in 0..<(seconds * 1000 / 20) {
            now = now + .milliseconds(20)
            _ = sender.send(Self.opusFrame(tick, now: now), mid: "0", now: now)
            // 30 video frames a second: on 3 of every 5 ticks of 20 ms.
            if (tick + 1) * 3 / 5 != tick * 3 / 5 {
                _ = sender.send(Self.h264Frame(framesSent, now: now), mid: "1", now: now)
                framesSent += 1
            }
            // SRTP and SRTCP (RFC 7983 7): the player's input. The sender's own consent checks
            // are dropped (the receiver's clock must not run ahead of the media).
            while let transmit = sender.pollTransmit() {
                if let first = transmit.payload.first, first >= 128 { datagrams.append((now, transmit.payload)) }
            }
            while sender.pollEvent() != nil {}
        }
        var watch = Stopwatch()
        let framesReceived = watch.time { deliver(datagrams, to: receiver, from: sender) }
        guard framesReceived == framesSent else {
            throw BenchmarkError("peer receive: \(framesReceived) of \(framesSent) video frames received")
        }
        print("peer receive H.264 + Opus through SRTP, \(datagrams.count) packets (\(framesSent) video frames"
              + (deltaFrameBytes ? "" : ", keyframes' bytes only") + "): "
              + watch.perOperation(datagrams.count, per: "packet"))
    }

    /// Hands `datagrams` to `receiver` as `DatagramHost` does, and its consent checks to
    /// `sender`, whose answers come back (RFC 7675: unanswered, they would pile up as
    /// retransmissions no player sees); returns the video frames it assembled. What
    /// callgrind counts (`--toggle-collect='*PeerReceiveBenchmark*deliver*'`).
    private func deliver(_ datagrams: [(at: Instant, bytes: [UInt8])], to receiver: Peer, from sender: Peer) -> Int {
        var framesReceived = 0
        for datagram in datagrams {
            if let due = receiver.pollTimeout(), due <= datagram.at {
                receiver.handleTimeout(now: datagram.at)
            }
            datagram.bytes.withUnsafeBytes {
                receiver.handle(borrowed: $0, from: Self.senderAddress, to: Self.receiverAddress, now: datagram.at)
            }
            exchangeStun(receiver, sender, now: datagram.at)
            while let event = receiver.pollEvent() {
                if case .frame(let frame) = event, frame.codec == .h264 { framesReceived += 1 }
            }
            _ = receiver.pollTimeout()
        }
        return framesReceived
    }

    /// Hands the STUN `receiver` and `sender` send to each other until neither sends any
    /// more; the rest of what they send (RTCP) is dropped.
    private func exchangeStun(_ receiver: Peer, _ sender: Peer, now: Instant) {
        var moved = true
        while moved {
            moved = forward(from: receiver, at: Self.receiverAddress, to: sender, at: Self.senderAddress, now: now,
                            accepting: StunMessage.looksLikeStun)
            moved = forward(from: sender, at: Self.senderAddress, to: receiver, at: Self.receiverAddress, now: now,
                            accepting: StunMessage.looksLikeStun) || moved
        }
    }

    /// Hands what `from` sends and `accepting` takes to `to`, dropping the rest; true when
    /// something was handed.
    private func forward(from: Peer, at fromAddress: SocketAddress, to: Peer, at toAddress: SocketAddress,
                         now: Instant, accepting: ([UInt8]) -> Bool = { _ in true }) -> Bool {
        var forwarded = false
        while let transmit = from.pollTransmit() {
            guard accepting(transmit.payload) else { continue }
            transmit.payload.withUnsafeBytes { to.handle(borrowed: $0, from: fromAddress, to: toAddress, now: now) }
            forwarded = true
        }
        return forwarded
    }

    /// An offerer that sends audio and H.264 and an answerer that receives them, connected
    /// (ICE, DTLS) by handing each one's datagrams to the other in virtual time.
    private func connectedPair(now start: Instant) throws -> (sender: Peer, receiver: Peer) {
        func transceivers(_ direction: MediaDirection) -> [PeerTransceiver] {
            [PeerTransceiver(mid: "0", kind: .audio, direction: direction, codecs: [.opus()]),
             PeerTransceiver(mid: "1", kind: .video, direction: direction, codecs: [.h264()])]
        }
        let sender = try Peer(configuration: PeerConfiguration(role: .offerer, transceivers: transceivers(.sendonly),
                                                               localAddresses: [Self.senderAddress], seed: 1), now: start)
        var configuration = PeerConfiguration(role: .answerer, transceivers: transceivers(.recvonly),
                                              localAddresses: [Self.receiverAddress], seed: 2)
        configuration.deltaFrameBytes = deltaFrameBytes
        let receiver = try Peer(configuration: configuration, now: start)
        try receiver.setRemoteOffer(sender.createOffer(now: start), now: start)
        try sender.setRemoteAnswer(receiver.createAnswer(now: start), now: start)
        var connected = (sender: false, receiver: false)
        var now = start
        while !(connected.sender && connected.receiver) {
            guard now < start + .seconds(10) else { throw BenchmarkError("peer receive: the two peers did not connect") }
            now = now + .milliseconds(1)
            for peer in [sender, receiver] {
                if let due = peer.pollTimeout(), due <= now { peer.handleTimeout(now: now) }
            }
            _ = forward(from: sender, at: Self.senderAddress, to: receiver, at: Self.receiverAddress, now: now)
            _ = forward(from: receiver, at: Self.receiverAddress, to: sender, at: Self.senderAddress, now: now)
            while let event = sender.pollEvent() { if case .connected = event { connected.sender = true } }
            while let event = receiver.pollEvent() { if case .connected = event { connected.receiver = true } }
        }
        return (sender, receiver)
    }

    /// An Annex B access unit: SPS, PPS and an IDR slice every 60th frame (40 KB), else a
    /// non-IDR slice of 3 KB; the slice bytes never form a start code.
    private static func h264Frame(_ index: Int, now: Instant) -> EncodedMediaFrame {
        let keyframe = index % 60 == 0
        var bytes: [UInt8] = []
        if keyframe {
            bytes += [0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1E, 0xD9, 0x00, 0xA0, 0x2F, 0xF9, 0x70, 0x11]
            bytes += [0, 0, 0, 1, 0x68, 0xCB, 0x83, 0xCB, 0x20]
        }
        bytes += [0, 0, 0, 1, keyframe ? 0x65 : 0x41]
        let size = keyframe ? 40_000 : 3_000
        bytes += (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) | 0x01 }
        return EncodedMediaFrame(codec: .h264, bytes: bytes, isKeyframe: keyframe, rtpTimestamp: UInt32(index * 3000),
                                 captureTime: now, width: 640, height: 360)
    }

    /// A 20 ms Opus packet of 160 bytes.
    private static func opusFrame(_ index: Int, now: Instant) -> EncodedMediaFrame {
        EncodedMediaFrame(codec: .opus, bytes: (0..<160).map { UInt8(truncatingIfNeeded: $0 &+ index) },
                          isKeyframe: true, rtpTimestamp: UInt32(index * 960), captureTime: now)
    }
}
