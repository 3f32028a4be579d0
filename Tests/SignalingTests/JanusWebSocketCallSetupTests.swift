import Net
import RTCBase
import Signaling
import XCTest

/// Janus over one WebSocket (`janus-protocol`), without a server: the handshake, ids in
/// the message body, results matched by transaction, events pushed by Janus, keepalive
/// timing, Janus's errors quoted, garbage ignored and counted, and the socket's end.
final class JanusWebSocketCallSetupTests: XCTestCase {
    private let server = Endpoint(scheme: .ws, host: "127.0.0.1", port: 8188, path: "/")
    /// Above 2^53: exact only as a 64-bit integer.
    private let session: Int64 = 9_007_199_254_740_993

    /// An echo call whose socket Janus accepted and whose session it created; the next
    /// request on the socket is the attach.
    private func sessionCreated() throws -> (JanusWebSocketCallSetup, JanusSocketPeer) {
        var setup = JanusWebSocketCallSetup(server: server, plugin: .echoTest(videoCodec: nil), offer: "v=0\r\n", seed: 4)
        var janus = JanusSocketPeer()
        setup.start(now: Exchange.start)
        try janus.accept(&setup)
        let create = try janus.next(&setup)
        janus.send(.object(["janus": "success", "data": .object(["id": .integer(session)])]), transaction: create["transaction"], to: &setup)
        return (setup, janus)
    }
    private let handle: Int64 = 8_446_744_073_709_551_557

    /// A setup past the handshake, `create` and `attach`; returns it with the plugin message.
    private func attached(_ plugin: JanusPlugin, offer: String? = "v=0\r\n") throws -> (JanusWebSocketCallSetup, JanusSocketPeer, JSONValue) {
        var setup = JanusWebSocketCallSetup(server: server, plugin: plugin, offer: offer, seed: 4)
        var janus = JanusSocketPeer()
        setup.start(now: Exchange.start)
        try janus.accept(&setup)
        let create = try janus.next(&setup)
        XCTAssertEqual(create["janus"], "create")
        XCTAssertNil(create["session_id"])
        janus.send(.object(["janus": "success", "data": .object(["id": .integer(session)])]), transaction: create["transaction"], to: &setup)
        let attach = try janus.next(&setup)
        XCTAssertEqual(attach["janus"], "attach")
        XCTAssertEqual(attach["plugin"]?.stringValue, plugin.packageName)
        XCTAssertEqual(attach["session_id"]?.integerValue, session)
        XCTAssertNil(attach["handle_id"])
        janus.send(.object(["janus": "success", "session_id": .integer(session), "data": .object(["id": .integer(handle)])]),
                   transaction: attach["transaction"], to: &setup)
        XCTAssertEqual(setup.sessionID, session)
        XCTAssertEqual(setup.handleID, handle)
        let message = try janus.next(&setup)
        return (setup, janus, message)
    }

    private func answerEvent(_ sdp: String) -> JSONValue {
        .object(["janus": "event", "session_id": .integer(session), "sender": .integer(handle),
                 "plugindata": .object(["plugin": "janus.plugin.echotest", "data": .object(["echotest": "event", "result": "ok"])]),
                 "jsep": .object(["type": "answer", "sdp": .string(sdp)])])
    }

    private let answerSDP = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\na=mid:0\r\n"

    func testTheUpgradeAsksForJanusProtocolAndNothingIsSentBeforeItIsAccepted() throws {
        var setup = JanusWebSocketCallSetup(server: server, plugin: .echoTest(videoCodec: nil), offer: "v=0\r\n", seed: 4)
        setup.start(now: Exchange.start)
        var janus = JanusSocketPeer()
        try janus.accept(&setup)
        XCTAssertEqual(janus.upgrade?.headers["Sec-WebSocket-Protocol"], "janus-protocol")
        XCTAssertEqual(janus.upgrade?.target, "/")
        XCTAssertEqual(try janus.next(&setup)["janus"], "create", "create waits for the 101, then goes out once")
        XCTAssertEqual(setup.pollTimeout(), Exchange.start + .seconds(10), "create's own deadline")
    }

    func testIdsTravelInTheBodyAndTheAnswerMatchesByTransactionEvenBeforeTheAck() throws {
        var (setup, janus, message) = try attached(.echoTest(videoCodec: "vp8"))
        XCTAssertEqual(message["session_id"]?.integerValue, session)
        XCTAssertEqual(message["handle_id"]?.integerValue, handle)
        XCTAssertEqual(message["body"], .object(["audio": true, "video": true, "videocodec": "vp8"]))
        XCTAssertEqual(message["jsep"]?["type"], "offer")
        // The event first, then its ack: results go by transaction, not by order.
        janus.send(.object(["janus": "event", "session_id": .integer(session), "sender": .integer(handle),
                            "plugindata": .object(["plugin": "janus.plugin.echotest", "data": .object(["result": "ok"])])]),
                   transaction: "someone-else", to: &setup)
        XCTAssertEqual(JanusSocketPeer.events(&setup), [], "another transaction's event is not our answer")
        janus.send(answerEvent(answerSDP), transaction: message["transaction"], to: &setup)
        janus.send(.object(["janus": "ack", "session_id": .integer(session)]), transaction: message["transaction"], to: &setup)
        XCTAssertEqual(JanusSocketPeer.events(&setup), [.answer(answerSDP)])
        XCTAssertEqual(try janus.received(&setup).count, 0)
    }

    func testEventsJanusPushesAreTakenOnlyForOurSessionAndHandle() throws {
        var (setup, janus, message) = try attached(.echoTest(videoCodec: nil))
        janus.send(answerEvent(answerSDP), transaction: message["transaction"], to: &setup)
        XCTAssertEqual(JanusSocketPeer.events(&setup), [.answer(answerSDP)])
        janus.send(.object(["janus": "webrtcup", "session_id": .integer(session), "sender": .integer(handle)]), to: &setup)
        janus.send(.object(["janus": "media", "session_id": .integer(session), "sender": .integer(handle), "type": "video", "receiving": true]),
                   to: &setup)
        janus.send(.object(["janus": "hangup", "session_id": .integer(session), "sender": .integer(handle + 1), "reason": "not ours"]),
                   to: &setup)
        janus.send(.object(["janus": "hangup", "session_id": .integer(session + 1), "sender": .integer(handle), "reason": "not ours"]),
                   to: &setup)
        XCTAssertEqual(JanusSocketPeer.events(&setup), [.notice("Janus: webrtcup"), .notice("Janus: media video receiving")])
        XCTAssertEqual(setup.foreignMessages, 2)
        janus.send(.object(["janus": "hangup", "session_id": .integer(session), "sender": .integer(handle), "reason": "DTLS alert"]), to: &setup)
        XCTAssertEqual(JanusSocketPeer.events(&setup), [.notice("Janus: hangup (DTLS alert)")], "after the answer a hangup is news")
    }

    func testAKeepaliveGoesOutAfter25SecondsOfSilenceWithTheSessionOnly() throws {
        var (setup, janus, message) = try attached(.echoTest(videoCodec: nil))
        janus.send(answerEvent(answerSDP), transaction: message["transaction"], to: &setup)
        _ = JanusSocketPeer.events(&setup)
        XCTAssertEqual(setup.pollTimeout(), Exchange.start + .seconds(25))
        setup.handleTimeout(now: Exchange.start + .seconds(24))
        XCTAssertEqual(try janus.received(&setup).count, 0)
        setup.handleTimeout(now: Exchange.start + .seconds(25))
        let keepalive = try janus.next(&setup)
        XCTAssertEqual(keepalive["janus"], "keepalive")
        XCTAssertEqual(keepalive["session_id"]?.integerValue, session)
        XCTAssertNil(keepalive["handle_id"])
        XCTAssertEqual(setup.pollTimeout(), Exchange.start + .seconds(35), "the keepalive's own 10 s deadline comes first")
        janus.send(.object(["janus": "ack", "session_id": .integer(session)]), transaction: keepalive["transaction"], to: &setup)
        XCTAssertEqual(setup.pollTimeout(), Exchange.start + .seconds(50), "acked: the next keepalive")
        XCTAssertEqual(JanusSocketPeer.events(&setup), [])
    }

    func testJanusErrorRepliesFailTheCallQuotingCodeAndReasonAndCloseTheSocket() throws {
        var (setup, janus) = try sessionCreated()
        let attach = try janus.next(&setup)
        janus.send(.object(["janus": "error", "session_id": .integer(session),
                            "error": .object(["code": 460, "reason": "No such plugin 'janus.plugin.echotest'"])]),
                   transaction: attach["transaction"], to: &setup)
        let error = try XCTUnwrap(Exchange.failure(JanusSocketPeer.events(&setup)))
        XCTAssertEqual(error.message, "Janus error 460: No such plugin 'janus.plugin.echotest' (attach)")
        XCTAssertEqual(error.code, .refused)
        XCTAssertEqual(try janus.received(&setup).count, 0)
        XCTAssertEqual(janus.closed, .closed(code: 1000, reason: "", byPeer: true), "the socket closes, and Janus drops the session")
        janus.deliver(to: &setup)
        XCTAssertTrue(setup.isClosed)
        XCTAssertNil(setup.pollTimeout())
    }

    func testGarbageFramesAreCountedAndIgnored() throws {
        var (setup, janus, message) = try attached(.echoTest(videoCodec: nil))
        janus.socket.send(text: "not json at all")
        janus.socket.send(text: #"{"janus":42}"#)
        janus.socket.send(binary: [0, 1, 2])
        janus.socket.send(text: "[]")
        janus.deliver(to: &setup)
        XCTAssertEqual(setup.unreadableMessages, 4)
        XCTAssertEqual(JanusSocketPeer.events(&setup), [
            .notice("Janus sent text that is not a Janus message: not json at all (ignored)"),
            .notice(#"Janus sent text that is not a Janus message: {"janus":42} (ignored)"#),
            .notice("Janus sent a binary message of 3 bytes (ignored)"),
            .notice("Janus sent text that is not a Janus message: [] (ignored)"),
        ])
        janus.send(answerEvent(answerSDP), transaction: message["transaction"], to: &setup)
        XCTAssertEqual(JanusSocketPeer.events(&setup), [.answer(answerSDP)], "the call goes on")
    }

    func testRandomBytesAfterTheHandshakeNeverTrap() throws {
        var generator = SeededGenerator(seed: 0x5eed)
        let (base, _, _) = try attached(.videoRoomPublisher(room: nil, createOptions: [], display: "f"))
        var failed = 0
        for _ in 0..<500 {
            var setup = base
            let bytes = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            setup.handle(bytes, now: Exchange.start)
            setup.hangUp(now: Exchange.start)
            setup.handleTimeout(now: Exchange.start + .seconds(60))
            while setup.pollTransmit() != nil {}
            if JanusSocketPeer.events(&setup).contains(where: { if case .failed = $0 { true } else { false } }) { failed += 1 }
            if let deadline = setup.pollTimeout() { XCTAssertGreaterThan(deadline, Exchange.start + .seconds(60), "no deadline in the past") }
        }
        XCTAssertGreaterThan(failed, 400, "a broken frame fails the socket, with Close 1002")
    }

    func testARequestWithoutAResultFailsTheCallAfterTheTimeout() throws {
        var (setup, janus) = try sessionCreated()
        _ = try janus.next(&setup)
        setup.handleTimeout(now: Exchange.start + .seconds(9))
        XCTAssertEqual(JanusSocketPeer.events(&setup), [])
        setup.handleTimeout(now: Exchange.start + .seconds(10))
        XCTAssertEqual(Exchange.failure(JanusSocketPeer.events(&setup))?.message, "Janus did not answer attach within 10.0 seconds")
    }

    func testAnUpgradeWithoutJanusProtocolIsNamed() throws {
        var setup = JanusWebSocketCallSetup(server: server, plugin: .echoTest(videoCodec: nil), offer: "v=0\r\n", seed: 4)
        var janus = JanusSocketPeer()
        setup.start(now: Exchange.start)
        try janus.accept(&setup, supported: [])
        let error = try XCTUnwrap(Exchange.failure(JanusSocketPeer.events(&setup)))
        XCTAssertEqual(error.message, "the WebSocket handshake at ws://127.0.0.1:8188/ did not accept subprotocol janus-protocol "
                       + "(the server chose none): is it Janus?")
        XCTAssertTrue(setup.isClosed)
    }

    func testARefusedUpgradeQuotesTheServer() throws {
        var setup = JanusWebSocketCallSetup(server: server, plugin: .echoTest(videoCodec: nil), offer: "v=0\r\n", seed: 4)
        var janus = JanusSocketPeer()
        setup.start(now: Exchange.start)
        try janus.accept(&setup, response: HTTPResponse(status: 403, headers: ["Content-Length": "9"], body: Array("forbidden".utf8)))
        let error = try XCTUnwrap(Exchange.failure(JanusSocketPeer.events(&setup)))
        XCTAssertEqual(error.message, "Janus refused the WebSocket upgrade at ws://127.0.0.1:8188/: server refused the upgrade (HTTP 403 Forbidden): forbidden")
        XCTAssertEqual(error.code, .refused)
    }

    func testAConnectionClosedDuringTheHandshakeIsNotARefusal() throws {
        var setup = JanusWebSocketCallSetup(server: server, plugin: .echoTest(videoCodec: nil), offer: "v=0\r\n", seed: 4)
        setup.start(now: Exchange.start)
        XCTAssertNotNil(setup.pollTransmit())
        setup.handle(Array("HTTP/1.1 101 Switching".utf8), now: Exchange.start)
        setup.handleEOF(now: Exchange.start)
        let error = try XCTUnwrap(Exchange.failure(JanusSocketPeer.events(&setup)))
        XCTAssertTrue(error.message.hasPrefix("the WebSocket handshake with Janus at ws://127.0.0.1:8188/ failed: "), error.message)
        XCTAssertEqual(error.code, .noAnswer)
        XCTAssertTrue(setup.isClosed)
    }

    func testNoHandshakeAnswerWithinTheTimeoutFailsTheCall() throws {
        var setup = JanusWebSocketCallSetup(server: server, plugin: .echoTest(videoCodec: nil), offer: "v=0\r\n", seed: 4)
        setup.start(now: Exchange.start)
        XCTAssertEqual(setup.pollTimeout(), Exchange.start + .seconds(10))
        setup.handleTimeout(now: Exchange.start + .seconds(10))
        XCTAssertEqual(Exchange.failure(JanusSocketPeer.events(&setup))?.message,
                       "Janus did not complete the WebSocket handshake at ws://127.0.0.1:8188/ within 10.0 seconds")
        XCTAssertNil(setup.pollTimeout())
    }

    func testJanusClosingTheSocketMidCallIsQuoted() throws {
        var (setup, janus, _) = try attached(.echoTest(videoCodec: nil))
        janus.socket.close(code: 1001, reason: "shutting down", now: Exchange.start)
        janus.deliver(to: &setup)
        XCTAssertEqual(Exchange.failure(JanusSocketPeer.events(&setup))?.message, "Janus closed the WebSocket (code 1001: shutting down)")
        XCTAssertTrue(setup.isClosed)
    }

    func testHangUpDetachesDestroysAndThenClosesTheSocket() throws {
        var (setup, janus, message) = try attached(.echoTest(videoCodec: nil))
        janus.send(answerEvent(answerSDP), transaction: message["transaction"], to: &setup)
        _ = JanusSocketPeer.events(&setup)
        setup.hangUp(now: Exchange.start)
        var steps: [String] = []
        for reply in ["ack", "success", "success"] {
            let request = try janus.next(&setup)
            steps.append(request["janus"]?.stringValue ?? "?")
            XCTAssertEqual(request["session_id"]?.integerValue, session)
            janus.send(.object(["janus": .string(reply), "session_id": .integer(session)]), transaction: request["transaction"], to: &setup)
        }
        XCTAssertEqual(steps, ["hangup", "detach", "destroy"])
        XCTAssertEqual(JanusSocketPeer.events(&setup), [.closed])
        XCTAssertEqual(try janus.received(&setup).count, 0)
        XCTAssertEqual(janus.closed, .closed(code: 1000, reason: "", byPeer: true))
    }

    func testASubscriberAnswersJanusOfferWithStart() throws {
        var (setup, janus, join) = try attached(.videoRoomSubscriber(room: 1234, feed: 77), offer: nil)
        XCTAssertEqual(join["body"], .object(["request": "join", "ptype": "subscriber", "room": 1234, "streams": [.object(["feed": 77])]]))
        janus.send(.object(["janus": "event", "session_id": .integer(session), "sender": .integer(handle),
                            "plugindata": .object(["plugin": "janus.plugin.videoroom", "data": .object(["videoroom": "attached", "room": 1234])]),
                            "jsep": .object(["type": "offer", "sdp": "v=0\r\n"])]),
                   transaction: join["transaction"], to: &setup)
        XCTAssertEqual(JanusSocketPeer.events(&setup), [.offer("v=0\r\n")])
        setup.answer("v=0 answer\r\n", now: Exchange.start)
        let start = try janus.next(&setup)
        XCTAssertEqual(start["body"], .object(["request": "start"]))
        XCTAssertEqual(start["jsep"], .object(["type": "answer", "sdp": "v=0 answer\r\n"]))
        XCTAssertEqual(start["handle_id"]?.integerValue, handle)
    }
}
