import Net
import RTCBase
import Signaling
import WebRTCTestKit
import XCTest

/// Janus behaviour the captures do not show: keepalives, errors in Janus's and in the
/// plugin's words, a hang-up during setup, a dead long poll, trickle before the handle.
final class JanusCallSetupTests: XCTestCase {
    private let server = Endpoint(scheme: .http, host: "127.0.0.1", port: 8088, path: "/janus")
    private let session: Int64 = 1_234_567_890_123_456
    private let handle: Int64 = 6_543_210_987_654_321

    /// Answers `request` with `json` (its transaction filled in when it has one).
    private func reply(_ setup: inout JanusCallSetup, _ request: CallSetupRequest, _ json: JSONValue, now: Instant = Exchange.start) {
        let transaction = (try? JSONValue(parsing: request.request.body))?["transaction"]
        var body = json
        if case .object(var members) = body, let transaction, !members.contains(where: { $0.key == "transaction" }) {
            members.append(JSONValue.Member("transaction", transaction))
            body = .object(members)
        }
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.serialized.utf8))
        setup.handle(.response(response, request: request.request), for: request.id, now: now)
    }

    /// A setup with a session and a handle; returns the open long poll and the plugin message.
    private func attached(_ plugin: JanusPlugin, offer: String? = "v=0\r\n") throws -> (JanusCallSetup, CallSetupRequest, CallSetupRequest) {
        var setup = JanusCallSetup(server: server, plugin: plugin, offer: offer, seed: 9)
        setup.start(now: Exchange.start)
        let create = try Exchange.next(&setup)
        XCTAssertEqual(create.request.target, "/janus")
        reply(&setup, create, .object(["janus": "success", "data": .object(["id": .integer(session)])]))
        let poll = try Exchange.next(&setup)
        XCTAssertEqual(poll.request.method, .get)
        XCTAssertEqual(poll.request.target, "/janus/\(session)?maxev=10")
        XCTAssertGreaterThanOrEqual(poll.timeout, .seconds(30), "Janus holds a poll up to 30 s")
        let attach = try Exchange.next(&setup)
        XCTAssertEqual(try JSONValue(parsing: attach.request.body)["plugin"]?.stringValue, plugin.packageName)
        reply(&setup, attach, .object(["janus": "success", "session_id": .integer(session), "data": .object(["id": .integer(handle)])]))
        let message = try Exchange.next(&setup)
        XCTAssertEqual(message.request.target, "/janus/\(session)/\(handle)")
        return (setup, poll, message)
    }

    func testEchoTestBodyCarriesTheRequestedVideoCodec() throws {
        let (_, _, message) = try attached(.echoTest(videoCodec: "h264"))
        let body = try JSONValue(parsing: message.request.body)
        XCTAssertEqual(body["body"], .object(["audio": true, "video": true, "videocodec": "h264"]))
        XCTAssertEqual(body["jsep"], .object(["type": "offer", "sdp": "v=0\r\n"]))
    }

    /// An ICE restart on an established EchoTest call: our new offer goes in an EchoTest
    /// message (no restart before the call is up, none while one is waiting), and Janus's
    /// answer comes out whole as `.iceRestarted`, not as a second `.answer`.
    func testAnIceRestartSendsTheNewOfferInAPluginMessageAndHandsOnJanussAnswer() throws {
        let answer = "v=0\r\no=- 2 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\n"
        func answered(_ ufrag: String) -> JSONValue {
            .object(["janus": "event", "session_id": .integer(session), "sender": .integer(handle),
                     "plugindata": .object(["plugin": "janus.plugin.echotest", "data": .object(["echotest": "event", "result": "ok"])]),
                     "jsep": .object(["type": "answer", "sdp": .string(answer + "a=ice-ufrag:\(ufrag)\r\n")])])
        }
        var (setup, poll, message) = try attached(.echoTest(videoCodec: nil))
        setup.restartIce(offer: "v=0\r\na=ice-ufrag:new\r\n", now: Exchange.start)
        XCTAssertNil(setup.pollRequest(), "no restart before the call is set up")
        reply(&setup, message, answered("old"))
        XCTAssertEqual(Exchange.events(&setup), [.answer(answer + "a=ice-ufrag:old\r\n")])
        setup.restartIce(offer: "v=0\r\na=ice-ufrag:new\r\n", now: Exchange.start)
        let restart = try Exchange.next(&setup)
        setup.restartIce(offer: "v=0\r\na=ice-ufrag:newer\r\n", now: Exchange.start)
        XCTAssertNil(setup.pollRequest(), "one restart at a time")
        let body = try JSONValue(parsing: restart.request.body)
        XCTAssertEqual(restart.request.target, "/janus/\(session)/\(handle)")
        XCTAssertEqual(body["janus"], "message")
        XCTAssertEqual(body["body"], .object(["audio": true, "video": true]))
        XCTAssertEqual(body["jsep"], .object(["type": "offer", "sdp": "v=0\r\na=ice-ufrag:new\r\n"]))
        reply(&setup, restart, .object(["janus": "ack", "session_id": .integer(session)]))
        XCTAssertEqual(Exchange.events(&setup), [])
        // The plugin's answer comes on the long poll, matched by the restart's transaction.
        guard case .object(var event) = answered("janus2") else { return XCTFail() }
        event.append(.init("transaction", try XCTUnwrap(body["transaction"])))
        reply(&setup, poll, [.object(event)])
        XCTAssertEqual(Exchange.events(&setup), [.iceRestarted(answer + "a=ice-ufrag:janus2\r\n")])
    }

    func testKeepaliveGoesOutAfter25SecondsWithoutAPost() throws {
        var (setup, _, message) = try attached(.echoTest(videoCodec: nil))
        XCTAssertEqual(setup.pollTimeout(), Exchange.start + .seconds(25))
        setup.handleTimeout(now: Exchange.start + .seconds(24))
        XCTAssertNil(setup.pollRequest())
        setup.handleTimeout(now: Exchange.start + .seconds(25))
        let keepalive = try Exchange.next(&setup)
        XCTAssertEqual(keepalive.request.target, "/janus/\(session)")
        XCTAssertEqual(try JSONValue(parsing: keepalive.request.body)["janus"], "keepalive")
        XCTAssertEqual(setup.pollTimeout(), Exchange.start + .seconds(50))
        reply(&setup, keepalive, .object(["janus": "ack", "session_id": .integer(session)]))
        reply(&setup, message, .object(["janus": "ack"]))
        XCTAssertEqual(Exchange.events(&setup), [])
    }

    func testJanusErrorsFailQuotingCodeAndReason() throws {
        var setup = JanusCallSetup(server: server, plugin: .echoTest(videoCodec: nil), offer: "v=0\r\n", seed: 9)
        setup.start(now: Exchange.start)
        let create = try Exchange.next(&setup)
        reply(&setup, create, .object(["janus": "success", "data": .object(["id": .integer(session)])]))
        _ = try Exchange.next(&setup)  // the long poll
        let attach = try Exchange.next(&setup)
        reply(&setup, attach, .object(["janus": "error", "error": .object(["code": 460, "reason": "No such plugin 'janus.plugin.echotest'"])]))
        let error = try XCTUnwrap(Exchange.failure(Exchange.events(&setup)))
        XCTAssertEqual(error.message, "Janus error 460: No such plugin 'janus.plugin.echotest' (attach)")
        XCTAssertEqual(error.code, .refused)
    }

    /// In a known room, a publisher joins as the feed its stream name gives, which is what
    /// that stream's subscribers ask for.
    func testAPublisherInAKnownRoomJoinsAsTheFeedItsStreamNames() throws {
        let feed = JanusPlugin.feedID(forStream: "rtcswarm")
        XCTAssertEqual(feed, JanusPlugin.feedID(forStream: "rtcswarm"))
        XCTAssertNotEqual(feed, JanusPlugin.feedID(forStream: "rtcswarm2"))
        XCTAssertLessThan(feed, 1 << 53, "exact in any JSON reader")
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c; its low 53 bits:
        XCTAssertEqual(JanusPlugin.feedID(forStream: "a"), Int64(UInt64(0xaf63_dc4c_8601_ec8c) & (1 << 53 - 1)))
        let (_, _, message) = try attached(.videoRoomPublisher(room: 1234, createOptions: [], display: "p", feed: feed))
        XCTAssertEqual(try JSONValue(parsing: message.request.body)["body"],
                       .object(["request": "join", "ptype": "publisher", "room": 1234, "display": "p", "id": .integer(feed)]))
    }

    /// Janus's VideoRoom answer to a request of ours: `data` in `plugindata`.
    private func videoRoomEvent(_ data: JSONValue) -> JSONValue {
        .object(["janus": "event", "session_id": .integer(session), "sender": .integer(handle),
                 "plugindata": .object(["plugin": "janus.plugin.videoroom", "data": data])])
    }

    /// A publisher of a room Janus does not have (426) creates it, with that id and its
    /// own codec, then joins it as its stream's feed.
    func testAPublisherCreatesANamedRoomJanusLacksWithItsVideoCodec() throws {
        let plugin = JanusPlugin.videoRoomPublisher(room: 4321, createOptions: [.init("videocodec", "h264")], display: "p", feed: 7)
        var (setup, _, join) = try attached(plugin)
        reply(&setup, join, videoRoomEvent(.object(["videoroom": "event", "error_code": 426, "error": "No such room (4321)"])))
        XCTAssertEqual(Exchange.events(&setup), [], "not a failure")
        let create = try Exchange.next(&setup)
        XCTAssertEqual(try JSONValue(parsing: create.request.body)["body"],
                       .object(["request": "create", "room": 4321, "videocodec": "h264"]))
        reply(&setup, create, videoRoomEvent(.object(["videoroom": "created", "room": 4321, "permanent": false])))
        let again = try Exchange.next(&setup)
        XCTAssertEqual(try JSONValue(parsing: again.request.body)["body"],
                       .object(["request": "join", "ptype": "publisher", "room": 4321, "display": "p", "id": 7]))
        XCTAssertEqual(setup.roomID, 4321)
    }

    /// Another publisher created the room first (427): join it, and leave it standing at
    /// the end, since it is not ours to destroy.
    func testAPublisherWhoseRoomAnotherCreatedFirstJoinsItAndDoesNotDestroyIt() throws {
        var (setup, _, join) = try attached(.videoRoomPublisher(room: 4321, createOptions: [.init("videocodec", "h264")], display: "p", feed: 7))
        reply(&setup, join, videoRoomEvent(.object(["videoroom": "event", "error_code": 426, "error": "No such room (4321)"])))
        let create = try Exchange.next(&setup)
        reply(&setup, create, videoRoomEvent(.object(["videoroom": "event", "error_code": 427, "error": "Room 4321 already exists"])))
        let again = try Exchange.next(&setup)
        XCTAssertEqual(try JSONValue(parsing: again.request.body)["body"]?["request"], "join")
        reply(&setup, again, videoRoomEvent(.object(["videoroom": "joined", "room": 4321, "id": 7])))
        _ = try Exchange.next(&setup)  // publish
        setup.hangUp(now: Exchange.start)
        let leave = try Exchange.next(&setup)
        XCTAssertEqual(try JSONValue(parsing: leave.request.body)["body"], .object(["request": "leave"]))
        reply(&setup, leave, .object(["janus": "ack", "session_id": .integer(session)]))
        XCTAssertEqual(try JSONValue(parsing: try Exchange.next(&setup).request.body)["janus"], "destroy", "no VideoRoom destroy")
    }

    /// A second "no such room" after creating one is Janus's word, not a loop.
    func testANamedRoomIsCreatedOnlyOnce() throws {
        var (setup, _, join) = try attached(.videoRoomPublisher(room: 4321, createOptions: [], display: "p", feed: 7))
        let noRoom = videoRoomEvent(.object(["videoroom": "event", "error_code": 426, "error": "No such room (4321)"]))
        reply(&setup, join, noRoom)
        let create = try Exchange.next(&setup)
        XCTAssertEqual(try JSONValue(parsing: create.request.body)["body"], .object(["request": "create", "room": 4321]))
        reply(&setup, create, videoRoomEvent(.object(["videoroom": "created", "room": 4321])))
        reply(&setup, try Exchange.next(&setup), noRoom)
        XCTAssertEqual(Exchange.failure(Exchange.events(&setup))?.message, "janus.plugin.videoroom error 426: No such room (4321) (join)")
    }

    /// A room whose `videocodec` lacks ours: Janus answers the publish with the video
    /// refused (port 0), and the call fails saying so instead of publishing audio only.
    func testAPublisherWhoseVideoTheRoomRefusesFailsNamingTheRoomAndCodec() throws {
        let offer = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\n"
            + "m=video 9 UDP/TLS/RTP/SAVPF 102 103\r\na=rtpmap:102 H264/90000\r\na=rtpmap:103 rtx/90000\r\n"
        var (setup, _, join) = try attached(.videoRoomPublisher(room: 1234, createOptions: [], display: "p", feed: 7), offer: offer)
        reply(&setup, join, videoRoomEvent(.object(["videoroom": "joined", "room": 1234, "id": 7])))
        let publish = try Exchange.next(&setup)
        let answer = "v=0\r\no=- 2 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\n"
            + "m=video 0 UDP/TLS/RTP/SAVPF 0\r\na=inactive\r\n"
        guard case .object(var members) = videoRoomEvent(.object(["videoroom": "event", "configured": "ok"])) else { return XCTFail() }
        members.append(.init("jsep", .object(["type": "answer", "sdp": .string(answer)])))
        reply(&setup, publish, .object(members))
        XCTAssertEqual(Exchange.failure(Exchange.events(&setup))?.message,
                       "Janus VideoRoom room 1234 refused our video (H264): the room's videocodec does not include it; "
                       + "use a room that carries it, or a room id Janus does not have (the publisher then creates it for its codec)")
    }

    func testPluginErrorsArriveOnTheLongPollAndFailTheCall() throws {
        var (setup, poll, message) = try attached(.videoRoomSubscriber(room: 1234, feed: 99))
        let body = try JSONValue(parsing: message.request.body)
        XCTAssertEqual(body["body"], .object(["request": "join", "ptype": "subscriber", "room": 1234, "streams": [.object(["feed": 99])]]))
        let transaction = try XCTUnwrap(body["transaction"])
        reply(&setup, poll, [.object(["janus": "event", "session_id": .integer(session), "transaction": transaction, "sender": .integer(handle),
                                      "plugindata": .object(["plugin": "janus.plugin.videoroom",
                                                             "data": .object(["videoroom": "event", "error_code": 428, "error": "No such feed (99)"])])])])
        let error = try XCTUnwrap(Exchange.failure(Exchange.events(&setup)))
        XCTAssertEqual(error.message, "janus.plugin.videoroom error 428: No such feed (99) (join)")
    }

    func testAHangupBeforeTheAnswerFailsTheCall() throws {
        var (setup, poll, _) = try attached(.echoTest(videoCodec: nil))
        reply(&setup, poll, .object(["janus": "hangup", "session_id": .integer(session), "sender": .integer(handle), "reason": "ICE failed"]))
        XCTAssertEqual(Exchange.failure(Exchange.events(&setup))?.message, "Janus hung up: ICE failed")
    }

    func testTheLongPollIsRenewedAndThreeFailuresInARowEndTheCall() throws {
        var (setup, poll, _) = try attached(.echoTest(videoCodec: nil))
        reply(&setup, poll, .object(["janus": "keepalive"]))
        var next = try Exchange.next(&setup)
        XCTAssertEqual(next.request.method, .get, "a new poll after each answer")
        for attempt in 1...3 {
            let response = HTTPResponse(status: 502, reason: "Bad Gateway", body: Array("bad gateway".utf8))
            setup.handle(.response(response, request: next.request), for: next.id, now: Exchange.start)
            if attempt < 3 { next = try Exchange.next(&setup) }
        }
        let error = try XCTUnwrap(Exchange.failure(Exchange.events(&setup)))
        XCTAssertEqual(error.message, "Janus long poll failed 3 times, last with HTTP 502 Bad Gateway: bad gateway")
    }

    func testTrickleWaitsForTheHandle() throws {
        var setup = JanusCallSetup(server: server, plugin: .echoTest(videoCodec: nil), offer: "v=0\r\n", seed: 9)
        setup.start(now: Exchange.start)
        let create = try Exchange.next(&setup)
        setup.trickle(TrickleCandidate(mid: "0", mLineIndex: 0, candidate: "candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host"), now: Exchange.start)
        setup.trickle(nil, now: Exchange.start)
        XCTAssertNil(setup.pollRequest())
        reply(&setup, create, .object(["janus": "success", "data": .object(["id": .integer(session)])]))
        let attach = try Exchange.next(&setup, file: #filePath, line: #line)
        let attachRequest = attach.request.method == .get ? try Exchange.next(&setup) : attach
        reply(&setup, attachRequest, .object(["janus": "success", "data": .object(["id": .integer(handle)])]))
        _ = try Exchange.next(&setup)  // the EchoTest message
        let candidate = try JSONValue(parsing: try Exchange.next(&setup).request.body)
        XCTAssertEqual(candidate["candidate"], .object(["candidate": "candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host",
                                                        "sdpMid": "0", "sdpMLineIndex": 0]))
        let completed = try JSONValue(parsing: try Exchange.next(&setup).request.body)
        XCTAssertEqual(completed["candidate"], .object(["completed": true]))
    }

    func testHangUpBeforeTheSessionExistsDestroysItWhenItArrives() throws {
        var setup = JanusCallSetup(server: server, plugin: .echoTest(videoCodec: nil), offer: "v=0\r\n", seed: 9)
        setup.start(now: Exchange.start)
        let create = try Exchange.next(&setup)
        setup.hangUp(now: Exchange.start)
        reply(&setup, create, .object(["janus": "success", "data": .object(["id": .integer(session)])]))
        var requests: [CallSetupRequest] = []
        while let request = setup.pollRequest() { requests.append(request) }
        let destroy = try XCTUnwrap(requests.first { $0.request.method == .post })
        XCTAssertEqual(try JSONValue(parsing: destroy.request.body)["janus"], "destroy")
        XCTAssertEqual(destroy.request.target, "/janus/\(session)")
        reply(&setup, destroy, .object(["janus": "success", "session_id": .integer(session)]))
        XCTAssertEqual(Exchange.events(&setup), [.closed])
    }

    func testHangUpAfterAFailureStillDestroysTheSessionOnce() throws {
        var (setup, poll, _) = try attached(.echoTest(videoCodec: nil))
        reply(&setup, poll, .object(["janus": "hangup", "session_id": .integer(session), "sender": .integer(handle), "reason": "ICE failed"]))
        XCTAssertNotNil(Exchange.failure(Exchange.events(&setup)))
        while setup.pollRequest() != nil {}
        setup.hangUp(now: Exchange.start)
        let destroy = try Exchange.next(&setup)
        XCTAssertEqual(destroy.request.target, "/janus/\(session)")
        XCTAssertEqual(try JSONValue(parsing: destroy.request.body)["janus"], "destroy")
        setup.hangUp(now: Exchange.start)
        XCTAssertNil(setup.pollRequest(), "only once")
        reply(&setup, destroy, .object(["janus": "success", "session_id": .integer(session)]))
        XCTAssertEqual(Exchange.events(&setup), [], "no event after the failure")
    }

    func testSeveralEventsInOneLongPollAnswerAreHandledInOrder() throws {
        var (setup, poll, message) = try attached(.echoTest(videoCodec: nil))
        let transaction = try XCTUnwrap(try JSONValue(parsing: message.request.body)["transaction"])
        let sdp = try Fixtures.text("srs/whip.response.http").components(separatedBy: "\r\n\r\n").dropFirst().joined()
        // ?maxev=10: the answer and webrtcup arrive together, before the POST's ack.
        reply(&setup, poll, [
            .object(["janus": "event", "session_id": .integer(session), "transaction": transaction, "sender": .integer(handle),
                     "plugindata": .object(["plugin": "janus.plugin.echotest", "data": .object(["echotest": "event", "result": "ok"])]),
                     "jsep": .object(["type": "answer", "sdp": .string(sdp)])]),
            .object(["janus": "webrtcup", "session_id": .integer(session), "sender": .integer(handle)]),
        ])
        reply(&setup, message, .object(["janus": "ack", "session_id": .integer(session), "hint": "I'm taking my time!"]))
        XCTAssertEqual(Exchange.events(&setup), [.answer(sdp), .notice("Janus: webrtcup")])
        XCTAssertEqual(try Exchange.next(&setup).request.method, .get, "the next long poll")
        XCTAssertNil(setup.pollRequest())
    }
}
