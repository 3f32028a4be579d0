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
/// 1.1.2, with media, over each transport (HTTP long poll, ws://, wss://): ICE, DTLS and
/// SRTP on 127.0.0.1, our VP8 frames echoed back by the EchoTest, and a VideoRoom carrying
/// our publisher's frames to our subscriber.
final class JanusMediaInteropTests: XCTestCase {
    private func failed(_ events: [CallSetupEvent]) -> Bool { events.contains { if case .failed = $0 { true } else { false } } }

    func testEchoTestEchoesOurVP8FramesOverICEDTLSAndSRTP() throws {
        try echo(over: .http, role: "EchoTest, rtcswarm's peer through the HTTP adapter")
    }

    func testEchoTestOverWebSocketEchoesOurVP8Frames() throws {
        try echo(over: .webSocket, role: "EchoTest, rtcswarm's peer through the WebSocket adapter (ws://)")
    }

    func testEchoTestOverSecureWebSocketEchoesOurVP8Frames() throws {
        try echo(over: .secureWebSocket, role: "EchoTest over secure WebSocket (wss://), rtcswarm's peer")
    }

    func testVideoRoomCarriesOurPublishersFramesToOurSubscriber() throws {
        try videoRoom(over: .http, role: "VideoRoom, rtcswarm publisher → rtcswarm subscriber")
    }

    func testVideoRoomOverWebSocketCarriesOurPublishersFramesToOurSubscriber() throws {
        try videoRoom(over: .webSocket, role: "VideoRoom over WebSocket (ws://), rtcswarm publisher → rtcswarm subscriber")
    }

    private func echo(over transport: JanusTransport, role: String) throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: role, codec: "VP8+Opus")
        let janus = try JanusUnderTest(transport)
        defer { janus.stop() }
        cell.version = ServerVersionProbe.janus(port: janus.janus.port)
        let loop = janus.loop

        let local = try LoopPeer(loop: loop, role: .offerer, direction: .sendrecv, seed: 21)
        let offer = try local.peer.createOffer(now: loop.now())
        var signaled: [CallSetupEvent] = []
        let call = janus.call(.echoTest(videoCodec: "vp8"), offer: offer, seed: 21)
        let setup = call.driver
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
        let connected = loop.run(until: { local.connected || local.failure != nil || self.failed(signaled) }, timeout: .seconds(10))
        XCTAssertTrue(connected && local.connected, "not connected: peer \(local.events.suffix(5)), signaling \(signaled)\n\(janus.janus.log.suffix(3000))")
        guard local.connected else { return }
        cell.measured(setupMs: loop.now().milliseconds(since: started))
        print("Janus EchoTest over \(transport.rawValue): signaling + ICE + DTLS connected in \((loop.now().milliseconds(since: started) * 10).rounded() / 10) ms")
        XCTAssertGreaterThan(call.sessionID ?? 0, Int64(UInt32.max), "Janus ids are wider than 32 bits")

        // 60 frames of the test pattern at 30 fps; Janus echoes them back.
        let video = try PatternVideo()
        var sent = 0
        for _ in 0..<60 {
            if let frame = try video.next(at: loop.now()), local.peer.send(frame, mid: "1", now: loop.now()) { sent += 1 }
            local.drive()
            _ = loop.run(until: { false }, timeout: .milliseconds(33))
        }
        _ = loop.run(until: { local.videoFramesReceived >= sent }, timeout: .seconds(2))
        print("Janus EchoTest over \(transport.rawValue): \(sent) VP8 frames sent, \(local.videoFramesReceived) echoed back")
        cell.measured(lossPct: InteropCell.lossPct(sent: sent, received: local.videoFramesReceived))
        XCTAssertEqual(sent, 60)
        XCTAssertGreaterThanOrEqual(local.videoFramesReceived, 55, "most frames come back on a lossless loopback")
        XCTAssertTrue(signaled.contains(.notice("Janus: webrtcup")), "Janus's pushed event arrived: \(signaled)")

        var closed = false
        setup.onEvent = { if $0 == .closed { closed = true } }
        local.peer.close(now: loop.now())
        local.drive()
        setup.hangUp()
        XCTAssertTrue(loop.run(until: { closed }, timeout: .seconds(5)), "teardown: hangup, detach, destroy")
    }

    private func videoRoom(over transport: JanusTransport, role: String) throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: role, codec: "VP8+Opus")
        let janus = try JanusUnderTest(transport)
        defer { janus.stop() }
        cell.version = ServerVersionProbe.janus(port: janus.janus.port)
        let loop = janus.loop

        // The publisher creates a room, joins, publishes; ICE and DTLS come up.
        let publisher = try LoopPeer(loop: loop, role: .offerer, direction: .sendonly, seed: 31)
        var published: [CallSetupEvent] = []
        let publishingCall = janus.call(
            .videoRoomPublisher(room: nil, createOptions: [.init("videocodec", "vp8"), .init("audiocodec", "opus")], display: "rtcswarm-pub"),
            offer: try publisher.peer.createOffer(now: loop.now()), seed: 31)
        let publishing = publishingCall.driver
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
        XCTAssertTrue(publisher.connected, "publisher: \(publisher.events.suffix(5)) \(published)\n\(janus.janus.log.suffix(3000))")
        let room = try XCTUnwrap(publishingCall.roomID)
        let feed = try XCTUnwrap(publishingCall.feedID)

        // It sends 30 fps from now on, with a keyframe whenever someone asks.
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

        // The subscriber: Janus offers, our peer answers, then receives the feed.
        let subscriber = try LoopPeer(loop: loop, role: .answerer, direction: .recvonly, seed: 32)
        var subscribed: [CallSetupEvent] = []
        let subscribingCall = janus.call(.videoRoomSubscriber(room: room, feed: feed), offer: nil, seed: 32)
        let subscribing = subscribingCall.driver
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
        subscribing.start()
        XCTAssertTrue(loop.run(until: { subscriber.videoFramesReceived >= 30 || subscriber.failure != nil || self.failed(subscribed) },
                               timeout: .seconds(10)),
                      "subscriber: \(subscriber.events.suffix(5)) \(subscribed)")
        print("Janus VideoRoom over \(transport.rawValue): publisher sent \(sent) VP8 frames, subscriber received "
              + "\(subscriber.videoFramesReceived), keyframe requests \(keyframesAnswered)")
        XCTAssertTrue(subscriber.connected)
        XCTAssertGreaterThanOrEqual(subscriber.videoFramesReceived, 30)
        XCTAssertTrue(subscribed.contains(.notice("Janus: VideoRoom subscription started")), "\(subscribed)")
        XCTAssertNotEqual(subscribingCall.sessionID, publishingCall.sessionID, "a session each")

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
