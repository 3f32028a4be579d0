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

/// rtcswarm's own WebRTC peer (PeerCore) through the Janus adapter over Janus's WebSocket
/// transport (`janus-protocol`) against the real Janus 1.1.2, with media: the EchoTest
/// echoes our VP8 frames, and a VideoRoom carries our publisher's frames to our subscriber.
final class JanusWebSocketInteropTests: XCTestCase {
    /// Janus with both transports on; `ws://127.0.0.1:<port>/`.
    private func startJanus() throws -> (JanusServer, EventLoop, Endpoint) {
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let janus = try JanusServer(executable: executable, shim: try LoopbackShim.library(), webSocket: true)
        let loop = try EventLoop()
        guard try JanusServer.waitUntilAnswering(janus, loop: loop), let port = janus.webSocketPort else {
            janus.stop()
            XCTFail("Janus did not start: \(janus.log.suffix(2000))")
            throw CancellationError()
        }
        return (janus, loop, Endpoint(scheme: .ws, host: "127.0.0.1", port: port, path: "/"))
    }

    private func failed(_ events: [CallSetupEvent]) -> Bool { events.contains { if case .failed = $0 { true } else { false } } }

    func testEchoTestOverWebSocketEchoesOurVP8Frames() throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "EchoTest, rtcswarm's peer through the WebSocket adapter (ws://)", codec: "VP8+Opus")
        let (janus, loop, server) = try startJanus()
        cell.version = ServerVersionProbe.janus(port: janus.port)
        defer { janus.stop() }

        let local = try LoopPeer(loop: loop, role: .offerer, direction: .sendrecv, seed: 41)
        let offer = try local.peer.createOffer(now: loop.now())
        var signaled: [CallSetupEvent] = []
        let setup = JanusWebSocketHost(loop: loop, setup: JanusWebSocketCallSetup(server: server, plugin: .echoTest(videoCodec: "vp8"),
                                                                                  offer: offer, seed: 41))
        setup.onEvent = { event in
            signaled.append(event)
            guard case .answer(let sdp) = event else { return }
            do {
                try local.peer.setRemoteAnswer(sdp, now: loop.now())
            } catch {
                XCTFail("our peer refused Janus's answer: \(error)")
            }
            local.drive()
            setup.trickle(nil)
        }
        let started = loop.now()
        setup.start()
        local.drive()
        let connected = loop.run(until: { local.connected || local.failure != nil || self.failed(signaled) }, timeout: .seconds(10))
        XCTAssertTrue(connected && local.connected, "not connected: peer \(local.events.suffix(5)), signaling \(signaled)\n\(janus.log.suffix(3000))")
        guard local.connected else { return }
        cell.measured(setupMs: loop.now().milliseconds(since: started))
        print("Janus EchoTest over WebSocket: signaling + ICE + DTLS connected in \((loop.now().milliseconds(since: started) * 10).rounded() / 10) ms")
        XCTAssertGreaterThan(setup.setup.sessionID ?? 0, Int64(UInt32.max), "Janus ids are wider than 32 bits")
        XCTAssertEqual(setup.setup.unreadableMessages, 0)
        XCTAssertEqual(setup.setup.foreignMessages, 0)

        // 60 frames of the test pattern at 30 fps; Janus echoes them back.
        let video = try PatternVideo()
        var sent = 0
        for _ in 0..<60 {
            if let frame = try video.next(at: loop.now()), local.peer.send(frame, mid: "1", now: loop.now()) { sent += 1 }
            local.drive()
            _ = loop.run(until: { false }, timeout: .milliseconds(33))
        }
        _ = loop.run(until: { local.videoFramesReceived >= sent }, timeout: .seconds(2))
        print("Janus EchoTest over WebSocket: \(sent) VP8 frames sent, \(local.videoFramesReceived) echoed back")
        cell.measured(lossPct: InteropCell.lossPct(sent: sent, received: local.videoFramesReceived))
        XCTAssertEqual(sent, 60)
        XCTAssertGreaterThanOrEqual(local.videoFramesReceived, 55, "most frames come back on a lossless loopback")
        XCTAssertTrue(signaled.contains(.notice("Janus: webrtcup")), "Janus's pushed event came on the socket: \(signaled)")

        var closed = false
        setup.onEvent = { if $0 == .closed { closed = true } }
        local.peer.close(now: loop.now())
        local.drive()
        setup.hangUp()
        XCTAssertTrue(loop.run(until: { closed }, timeout: .seconds(5)), "teardown: hangup, detach, destroy")
    }

    func testVideoRoomOverWebSocketCarriesOurPublishersFramesToOurSubscriber() throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "VideoRoom over WebSocket (ws://), rtcswarm publisher → rtcswarm subscriber",
                                        codec: "VP8+Opus")
        let (janus, loop, server) = try startJanus()
        cell.version = ServerVersionProbe.janus(port: janus.port)
        defer { janus.stop() }

        // The publisher creates a room, joins, publishes; ICE and DTLS come up.
        let publisher = try LoopPeer(loop: loop, role: .offerer, direction: .sendonly, seed: 51)
        var published: [CallSetupEvent] = []
        let publishing = JanusWebSocketHost(loop: loop, setup: JanusWebSocketCallSetup(
            server: server, plugin: .videoRoomPublisher(room: nil, createOptions: [.init("videocodec", "vp8"), .init("audiocodec", "opus")],
                                                        display: "rtcswarm-ws-pub"),
            offer: try publisher.peer.createOffer(now: loop.now()), seed: 51))
        publishing.onEvent = { event in
            published.append(event)
            guard case .answer(let sdp) = event else { return }
            do {
                try publisher.peer.setRemoteAnswer(sdp, now: loop.now())
            } catch {
                XCTFail("our publisher refused Janus's answer: \(error)")
            }
            publisher.drive()
            publishing.trickle(nil)
        }
        publishing.start()
        publisher.drive()
        XCTAssertTrue(loop.run(until: { publisher.connected || publisher.failure != nil || self.failed(published) }, timeout: .seconds(10)))
        XCTAssertTrue(publisher.connected, "publisher: \(publisher.events.suffix(5)) \(published)\n\(janus.log.suffix(3000))")
        let room = try XCTUnwrap(publishing.setup.roomID)
        let feed = try XCTUnwrap(publishing.setup.feedID)

        // 30 fps from now on, with a keyframe whenever someone asks.
        let video = try PatternVideo()
        var sent = 0
        var keyframesAnswered = 0
        var pumping = true
        func pump() {
            guard pumping else { return }
            if publisher.keyframeRequests > keyframesAnswered {
                keyframesAnswered = publisher.keyframeRequests
                video.requestKeyframe()
            }
            if let frame = try? video.next(at: loop.now()), publisher.peer.send(frame, mid: "1", now: loop.now()) { sent += 1 }
            publisher.drive()
            _ = loop.schedule(after: .milliseconds(33)) { pump() }
        }
        pump()

        // The subscriber, on a socket of its own: Janus offers, our peer answers.
        let subscriber = try LoopPeer(loop: loop, role: .answerer, direction: .recvonly, seed: 52)
        var subscribed: [CallSetupEvent] = []
        let subscribing = JanusWebSocketHost(loop: loop, setup: JanusWebSocketCallSetup(
            server: server, plugin: .videoRoomSubscriber(room: room, feed: feed), offer: nil, seed: 52))
        subscribing.onEvent = { event in
            subscribed.append(event)
            guard case .offer(let sdp) = event else { return }
            do {
                try subscriber.peer.setRemoteOffer(sdp, now: loop.now())
                subscribing.answer(try subscriber.peer.createAnswer(now: loop.now()))
            } catch {
                XCTFail("our subscriber refused Janus's offer: \(error)")
            }
            subscriber.drive()
            subscribing.trickle(nil)
        }
        let joining = loop.now()
        subscribing.start()
        XCTAssertTrue(loop.run(until: { subscriber.videoFramesReceived >= 30 || subscriber.failure != nil || self.failed(subscribed) },
                               timeout: .seconds(10)),
                      "subscriber: \(subscriber.events.suffix(5)) \(subscribed)")
        print("Janus VideoRoom over WebSocket: room \(room), feed \(feed); publisher sent \(sent) VP8 frames, subscriber received "
              + "\(subscriber.videoFramesReceived) (\((loop.now().milliseconds(since: joining) * 10).rounded() / 10) ms after joining), "
              + "keyframe requests \(keyframesAnswered)")
        XCTAssertTrue(subscriber.connected)
        XCTAssertGreaterThanOrEqual(subscriber.videoFramesReceived, 30)
        XCTAssertTrue(subscribed.contains(.notice("Janus: VideoRoom subscription started")), "\(subscribed)")
        XCTAssertNotEqual(subscribing.setup.sessionID, publishing.setup.sessionID, "one session per socket")

        pumping = false
        var closed = 0
        publishing.onEvent = { if $0 == .closed { closed += 1 } }
        subscribing.onEvent = { if $0 == .closed { closed += 1 } }
        subscriber.peer.close(now: loop.now())
        subscriber.drive()
        publisher.peer.close(now: loop.now())
        publisher.drive()
        subscribing.hangUp()
        publishing.hangUp()
        XCTAssertTrue(loop.run(until: { closed == 2 }, timeout: .seconds(5)), "teardown")
    }
}

/// What a `ws://` URL that is not Janus's WebSocket transport gets, in the server's words.
final class JanusWebSocketRefusalInteropTests: XCTestCase {
    func testAWebSocketToJanussHTTPPortFailsNamingTheRefusal() throws {
        InteropRecorder.cell(self, target: "Janus", role: "ws:// at the HTTP port (the refused upgrade is quoted)", codec: "signaling")
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let janus = try JanusServer(executable: executable, shim: try LoopbackShim.library())
        defer { janus.stop() }
        let loop = try EventLoop()
        guard try JanusServer.waitUntilAnswering(janus, loop: loop) else { return XCTFail("Janus did not start: \(janus.log.suffix(2000))") }
        var events: [CallSetupEvent] = []
        let server = Endpoint(scheme: .ws, host: "127.0.0.1", port: janus.port, path: "/janus")
        let setup = JanusWebSocketHost(loop: loop, setup: JanusWebSocketCallSetup(server: server, plugin: .echoTest(videoCodec: nil),
                                                                                  offer: "v=0\r\n", seed: 61))
        setup.onEvent = { events.append($0) }
        setup.start()
        XCTAssertTrue(loop.run(until: { !events.isEmpty }, timeout: .seconds(12)))
        print("ws:// to Janus's HTTP port: \(events)")
        guard case .failed(let error)? = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(error.message, "Janus refused the WebSocket upgrade at ws://127.0.0.1:\(janus.port)/janus: server refused the upgrade (HTTP 404 Not Found)")
        XCTAssertEqual(error.code, .refused)
        XCTAssertTrue(setup.setup.isClosed)
        XCTAssertNil(setup.setup.sessionID)
    }
}

/// Janus's secure WebSocket (`wss://`): our TLS client, trusting a certificate made for
/// the test, carries the EchoTest call.
final class JanusSecureWebSocketInteropTests: XCTestCase {
    func testEchoTestOverWSSNegotiatesAndTearsDown() throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "EchoTest over secure WebSocket (wss://), rtcswarm's peer", codec: "VP8+Opus")
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let openssl = try ExternalTool.require("openssl", installHint: "apt-get install openssl")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rtcswarm-wss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pem = folder.appendingPathComponent("cert.pem")
        let key = folder.appendingPathComponent("key.pem")
        let made = try ExternalTool.run(openssl, ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                  "-keyout", key.path, "-out", pem.path, "-days", "1", "-subj", "/CN=127.0.0.1",
                                                  "-addext", "subjectAltName=IP:127.0.0.1"])
        XCTAssertEqual(made.status, 0, made.output)
        let janus = try JanusServer(executable: executable, shim: try LoopbackShim.library(), webSocket: true, certificate: (pem, key))
        defer { janus.stop() }
        let loop = try EventLoop()
        guard try JanusServer.waitUntilAnswering(janus, loop: loop), let port = janus.secureWebSocketPort else {
            return XCTFail("Janus did not start: \(janus.log.suffix(2000))")
        }
        cell.version = ServerVersionProbe.janus(port: janus.port)
        let tls = try TLSClientContext(configuration: TLSConfiguration(additionalTrustedPEM: try String(contentsOf: pem, encoding: .utf8)))
        let local = try LoopPeer(loop: loop, role: .offerer, direction: .sendrecv, seed: 71)
        var events: [CallSetupEvent] = []
        let setup = JanusWebSocketHost(loop: loop, setup: JanusWebSocketCallSetup(
            server: Endpoint(scheme: .wss, host: "127.0.0.1", port: port, path: "/"), plugin: .echoTest(videoCodec: "vp8"),
            offer: try local.peer.createOffer(now: loop.now()), seed: 71), tls: tls)
        setup.onEvent = { event in
            events.append(event)
            guard case .answer(let sdp) = event else { return }
            do {
                try local.peer.setRemoteAnswer(sdp, now: loop.now())
            } catch {
                XCTFail("our peer refused Janus's answer: \(error)")
            }
            local.drive()
            setup.trickle(nil)
        }
        let started = loop.now()
        setup.start()
        local.drive()
        XCTAssertTrue(loop.run(until: { local.connected || local.failure != nil || events.contains { if case .failed = $0 { true } else { false } } },
                               timeout: .seconds(10)))
        XCTAssertTrue(local.connected, "peer \(local.events.suffix(5)), signaling \(events)\n\(janus.log.suffix(3000))")
        cell.measured(setupMs: loop.now().milliseconds(since: started))
        print("Janus EchoTest over wss: connected in \((loop.now().milliseconds(since: started) * 10).rounded() / 10) ms, session \(setup.setup.sessionID ?? 0)")
        XCTAssertGreaterThan(setup.setup.sessionID ?? 0, Int64(UInt32.max))
        events = []
        local.peer.close(now: loop.now())
        local.drive()
        setup.hangUp()
        XCTAssertTrue(loop.run(until: { events.contains(.closed) }, timeout: .seconds(5)), "teardown: \(events)")
    }
}
