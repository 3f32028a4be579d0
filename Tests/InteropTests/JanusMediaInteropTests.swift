import EventLoop
import Foundation
import Media
import Net
import PeerCore
import RTCBase
import Runtime
import Signaling
import WebRTCTestKit
import XCTest

/// rtcswarm's own WebRTC peer (PeerCore) through the Janus adapter against the real Janus
/// 1.1.2 EchoTest, with media: ICE, DTLS and SRTP on 127.0.0.1, our VP8 frames echoed back.
final class JanusMediaInteropTests: XCTestCase {
    /// A `Peer` on a loopback UDP socket, driven on the loop.
    private final class LoopPeer {
        let loop: EventLoop
        let socket: UDPSocket
        let peer: Peer
        var events: [PeerEvent] = []
        private var timer: TimerID?

        init(loop: EventLoop, seed: UInt64) throws {
            self.loop = loop
            socket = try UDPSocket(loop: loop, bindTo: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
            peer = try Peer(configuration: PeerConfiguration(
                role: .offerer,
                transceivers: [PeerTransceiver(mid: "0", kind: .audio, direction: .sendrecv, codecs: [.opus()]),
                               PeerTransceiver(mid: "1", kind: .video, direction: .sendrecv, codecs: [.vp8()])],
                localAddresses: [socket.localAddress], seed: seed), now: loop.now())
            socket.onDatagram = { [unowned self] bytes, from in
                self.peer.handle(datagram: Array(bytes), from: from, to: self.socket.localAddress, now: self.loop.now())
                self.drive()
            }
        }

        func drive() {
            while let transmit = peer.pollTransmit() { socket.send(transmit.payload, to: transmit.destination) }
            while let event = peer.pollEvent() { events.append(event) }
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
        var videoFramesReceived: Int { events.filter { if case .frame(let frame) = $0 { frame.kind == .video } else { false } }.count }
    }

    func testEchoTestEchoesOurVP8FramesOverICEDTLSAndSRTP() throws {
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let janus = try JanusServer(executable: executable, shim: try JanusServer.loopbackShim())
        defer { janus.stop() }
        let loop = try EventLoop()
        let api = Endpoint(scheme: .http, host: "127.0.0.1", port: janus.port, path: "/janus")
        XCTAssertTrue(try JanusServer.waitUntilAnswering(janus, loop: loop), "Janus did not start: \(janus.log.suffix(2000))")

        let local = try LoopPeer(loop: loop, seed: 21)
        let offer = try local.peer.createOffer(now: loop.now())
        var signaled: [CallSetupEvent] = []
        let setup = CallSetupHost(loop: loop, setup: JanusCallSetup(server: api, plugin: .echoTest(videoCodec: "vp8"), offer: offer, seed: 21))
        setup.onEvent = { event in
            signaled.append(event)
            if case .answer(let sdp) = event {
                do {
                    try local.peer.setRemoteAnswer(sdp, now: loop.now())
                } catch {
                    XCTFail("our peer refused Janus's answer: \(error)")
                }
                local.drive()
                setup.trickle(nil)
            }
        }
        let started = loop.now()
        setup.start()
        local.drive()
        let connected = loop.run(until: { local.connected || local.failure != nil || signaled.contains { if case .failed = $0 { true } else { false } } },
                                 timeout: .seconds(10))
        XCTAssertTrue(connected && local.connected, "not connected: peer \(local.events.suffix(5)), signaling \(signaled)\n\(janus.log.suffix(3000))")
        guard local.connected else { return }
        print("Janus EchoTest: signaling + ICE + DTLS connected in \((loop.now().milliseconds(since: started) * 10).rounded() / 10) ms")

        // 60 frames of the test pattern at 30 fps; Janus echoes them back.
        let encoder = try VideoEncoderConfig.defaults(codec: .vp8, resolution: .p180).makeEncoder()
        var source = VideoSource()
        var sent = 0
        for index in 0..<60 {
            let raw = source.frame(index: index, resolution: .p180, captureTime: loop.now())
            if let encoded = try encoder.encode(raw) {
                let frame = EncodedMediaFrame(codec: .vp8, bytes: encoded.bytes, isKeyframe: encoded.isKeyframe, rtpTimestamp: encoded.rtpTimestamp,
                                              captureTime: encoded.captureTime, width: encoded.width, height: encoded.height)
                if local.peer.send(frame, mid: "1", now: loop.now()) { sent += 1 }
                local.drive()
            }
            _ = loop.run(until: { false }, timeout: .milliseconds(33))
        }
        _ = loop.run(until: { local.videoFramesReceived >= sent }, timeout: .seconds(2))
        print("Janus EchoTest: \(sent) VP8 frames sent, \(local.videoFramesReceived) echoed back")
        XCTAssertEqual(sent, 60)
        XCTAssertGreaterThanOrEqual(local.videoFramesReceived, 55, "most frames come back on a lossless loopback")
        XCTAssertTrue(signaled.contains(.notice("Janus: webrtcup")), "\(signaled)")

        var closed = false
        setup.onEvent = { if $0 == .closed { closed = true } }
        local.peer.close(now: loop.now())
        local.drive()
        setup.hangUp()
        XCTAssertTrue(loop.run(until: { closed }, timeout: .seconds(5)), "teardown")
    }
}
