import Net
import RTCBase
import SDP
import Signaling
import WebRTCTestKit
import XCTest

/// The Janus adapter replayed against Janus 1.1.2's captured sessions: every POST it
/// makes must equal the captured one, byte for byte as JSON once transactions are mapped.
final class JanusReplayTests: XCTestCase {
    private let server = Endpoint(scheme: .http, host: "127.0.0.1", port: 8088, path: "/janus")

    /// The SDP of the first captured `send` line that carries a JSEP of `type`.
    private func capturedJSEP(_ fixture: String, type: String, from direction: String = "send") throws -> String {
        for text in try Fixtures.text("janus/\(fixture)").split(separator: "\n") {
            let json = try JSONValue(parsing: text)
            if json["dir"]?.stringValue == direction, json["body"]?["jsep"]?["type"]?.stringValue == type,
               let sdp = json["body"]?["jsep"]?["sdp"]?.stringValue {
                return sdp
            }
        }
        throw XCTSkip("no \(type) in \(fixture)")
    }

    private func replayEcho(_ fixture: String, videoCodec: String?) throws -> [CallSetupEvent] {
        let offer = try capturedJSEP(fixture, type: "offer")
        let server = server
        var replay = try JanusReplay(fixture: fixture) { _ in
            JanusCallSetup(server: server, plugin: .echoTest(videoCodec: videoCodec), offer: offer, seed: 1)
        }
        try replay.run()
        XCTAssertEqual(replay.setups.count, 1)
        XCTAssertEqual(replay.events[0].last, .closed)
        return replay.events[0]
    }

    func testEchoTestVP8NegotiatesAndTearsDownLikeTheCapture() throws {
        let events = try replayEcho("echo-vp8.jsonl", videoCodec: nil)
        let answer = try capturedJSEP("echo-vp8.jsonl", type: "answer", from: "recv")
        XCTAssertEqual(events, [
            .answer(answer),
            .notice("Janus: webrtcup"), .notice("Janus: media audio receiving"), .notice("Janus: media video receiving"),
            .notice("Janus: hangup (Janus API)"),
            .closed,
        ])
        let video = try XCTUnwrap(try SessionDescription.parse(answer).media.first { $0.kind == .video })
        let codecs = video.attributes.compactMap { if case .rtpmap(let map) = $0 { map.name } else { nil } }
        XCTAssertEqual(codecs.first, "VP8", "Janus chose VP8 among \(codecs)")
    }

    func testEchoTestH264KeepsJanussChoiceOfProfile() throws {
        let events = try replayEcho("echo-h264.jsonl", videoCodec: nil)
        let sdp = try XCTUnwrap(Exchange.answerSDP(events))
        XCTAssertTrue(sdp.contains("profile-level-id=42001f"))
        XCTAssertEqual(events.last, .closed)
        XCTAssertNil(events.first { if case .failed = $0 { true } else { false } })
    }

    func testVideoRoomPublisherAndSubscriberWithEventsBeforeTheirAcks() throws {
        let offer = try capturedJSEP("videoroom.jsonl", type: "offer")
        let server = server
        var replay = try JanusReplay(fixture: "videoroom.jsonl") { earlier in
            if let publisher = earlier.first, let room = publisher.roomID, let feed = publisher.feedID {
                return JanusCallSetup(server: server, plugin: .videoRoomSubscriber(room: room, feed: feed), offer: nil, seed: 3)
            }
            let options: [JSONValue.Member] = [.init("description", "fixture-room"), .init("publishers", 4), .init("bitrate", 1_000_000),
                                               .init("audiocodec", "opus"), .init("videocodec", "vp8")]
            return JanusCallSetup(server: server, plugin: .videoRoomPublisher(room: nil, createOptions: options, display: "aiortc-pub"),
                                  offer: offer, seed: 2)
        }
        try replay.run()
        XCTAssertEqual(replay.setups.count, 2)
        let publisher = replay.setups[0]
        // 16-digit ids survive as 64-bit integers.
        XCTAssertEqual(publisher.sessionID, 5_223_918_924_660_977)
        XCTAssertEqual(publisher.handleID, 5_225_958_053_702_854)
        XCTAssertEqual(publisher.roomID, 4_661_667_421_306_650)
        XCTAssertEqual(publisher.feedID, 3_078_261_998_924_400)
        let publisherAnswer = try XCTUnwrap(Exchange.answerSDP(replay.events[0]))
        XCTAssertTrue(publisherAnswer.contains("s=VideoRoom 4661667421306650"))
        XCTAssertEqual(replay.events[0].last, .closed)

        // The subscriber's offer came on the long poll before the join's ack.
        let janusOffer = try capturedJSEP("videoroom.jsonl", type: "offer", from: "recv")
        XCTAssertEqual(replay.events[1].first, .offer(janusOffer))
        XCTAssertTrue(replay.events[1].contains(.notice("Janus: VideoRoom subscription started")))
        XCTAssertEqual(replay.events[1].last, .closed)
        for events in replay.events {
            XCTAssertNil(events.first { if case .failed = $0 { true } else { false } }, "\(events)")
        }
    }
}
