import Net
import RTCBase
import Signaling
import XCTest

/// The OWT portal client against scripted portal exchanges in the shape of the OWT 5.x
/// JavaScript SDK's traffic (Socket.IO 2.x, Engine.IO v3, login protocol 1.2).
final class OWTPortalClientTests: XCTestCase {
    let start = OWTPortalPeer.start

    /// `42<id>[name, ...]` split into the ack id and the JSON array.
    private func event(_ packet: String?, file: StaticString = #filePath, line: UInt = #line) throws -> (ack: Int?, body: JSONValue) {
        let text = try XCTUnwrap(packet, file: file, line: line)
        XCTAssert(text.hasPrefix("42"), "not an event: \(text)", file: file, line: line)
        let rest = text.dropFirst(2)
        let digits = rest.prefix { $0.isNumber }
        return (Int(digits), try JSONValue(parsing: String(rest.dropFirst(digits.count))))
    }

    func testLoginOverEngineIO3ReportsTheRoom() throws {
        var client = OWTPortalPeer.client()
        var portal = OWTPortalPeer()
        try portal.openV3(&client)
        XCTAssertEqual(portal.destination, StreamDestination(host: "127.0.0.1", port: 8080, secure: false))
        XCTAssertEqual(portal.upgrade?.target, "/socket.io/?EIO=3&transport=websocket")
        let login = try event(try portal.take(&client).first)
        XCTAssertEqual(login.ack, 0)
        XCTAssertEqual(login.body[0], "login")
        XCTAssertEqual(login.body[1]?["token"]?.stringValue, OWTPortalPeer.token)
        XCTAssertEqual(login.body[1]?["protocol"], "1.2")
        XCTAssertEqual(login.body[1]?["userAgent"]?["sdk"]?["type"], "rtcswarm")

        // login_ms counts from the connection being up (at `start`).
        try portal.send(#"430["ok",\#(OWTPortalPeer.roomInfo)]"#, to: &client, now: start + .milliseconds(120))
        let events = OWTPortalPeer.events(&client)
        XCTAssertEqual(events.first, .acknowledged(request: "login", milliseconds: 120, sentAt: start))
        guard case .joined(let room) = try XCTUnwrap(events.last), events.count == 2 else { return XCTFail("\(events)") }
        XCTAssertEqual(room.participantID, "p1")
        XCTAssertEqual(room.roomID, "r1")
        XCTAssertEqual(room.participants.map(\.user), ["alice", "bob"])
        XCTAssertEqual(room.mixedStream?.id, "r1-common")
        XCTAssertEqual(room.mixedStream?.videoWidth, 1280)
        XCTAssertEqual(room.mixedStream?.videoHeight, 720)
        let forward = try XCTUnwrap(room.streams.first { $0.kind == .forward })
        XCTAssertEqual(forward.owner, "p2")
        XCTAssertEqual(forward.videoWidth, 640)
        XCTAssertFalse(forward.hasAudio)
        XCTAssertEqual(client.reconnectionTicket, OWTPortalPeer.ticket)
        XCTAssertTrue(client.isJoined)
    }

    func testPublishSendsTracksThenTheOfferAndReportsAnswerAndReady() throws {
        var client = OWTPortalPeer.client()
        var portal = OWTPortalPeer()
        _ = try portal.logIn(&client)
        let tag = try client.publish(offer: OWTPortalPeer.offer, now: start)
        let publish = try event(try portal.take(&client).first)
        XCTAssertEqual(publish.ack, 1)
        XCTAssertEqual(publish.body[1]?.serialized,
                       #"{"media":{"tracks":[{"type":"audio","mid":"0","source":"mic"},{"type":"video","mid":"1","source":"camera"}]},"transport":{"type":"webrtc"}}"#)

        try portal.send(#"431["ok",{"transportId":"t1","id":"pub1"}]"#, to: &client, now: start + .milliseconds(35))
        XCTAssertEqual(OWTPortalPeer.events(&client),
                       [.acknowledged(request: "publish", milliseconds: 35, sentAt: start), .accepted(tag, transportID: "t1", sessionID: "pub1")])
        let soac = try event(try portal.take(&client).first)
        XCTAssertEqual(soac.ack, 2)
        XCTAssertEqual(soac.body[0], "soac")
        XCTAssertEqual(soac.body[1]?["id"], "t1")
        XCTAssertEqual(soac.body[1]?["signaling"]?["type"], "offer")
        XCTAssertEqual(soac.body[1]?["signaling"]?["sdp"]?.stringValue, OWTPortalPeer.offer)

        try portal.send(#"432["ok"]"#,
                        #"42["progress",{"id":"t1","status":"soac","data":{"type":"answer","sdp":"v=0\r\n"}}]"#,
                        #"42["progress",{"id":"t1","status":"soac","data":{"type":"candidate","candidate":"a=candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host"}}]"#,
                        #"42["progress",{"id":"t1","status":"ready","sessionId":"pub1"}]"#, to: &client)
        XCTAssertEqual(OWTPortalPeer.events(&client), [
            .answer(transportID: "t1", sdp: "v=0\r\n"),
            .remoteCandidate(transportID: "t1", candidate: "candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host"),
            .ready(transportID: "t1", sessionID: "pub1"),
        ])
    }

    func testSubscribeAsksForEachKindFromTheStreamAndCandidatesCarryTheirSection() throws {
        var client = OWTPortalPeer.client()
        var portal = OWTPortalPeer()
        _ = try portal.logIn(&client)
        _ = try client.subscribe(offer: OWTPortalPeer.offer, from: "r1-common", now: start)
        let subscribe = try event(try portal.take(&client).first)
        XCTAssertEqual(subscribe.body[0], "subscribe")
        XCTAssertEqual(subscribe.body[1]?.serialized,
                       #"{"media":{"tracks":[{"type":"audio","mid":"0","from":"r1-common"},{"type":"video","mid":"1","from":"r1-common"}]},"transport":{"type":"webrtc"}}"#)
        client.sendCandidate(TrickleCandidate(mid: "1", mLineIndex: 1, candidate: "candidate:2 1 udp 1 10.0.0.1 9 typ host"),
                             transportID: "t9", now: start)
        client.removeCandidates([TrickleCandidate(mid: "0", mLineIndex: 0, candidate: "candidate:3 1 udp 1 10.0.0.2 9 typ host")],
                                transportID: "t9", now: start)
        let sent = try portal.take(&client)
        XCTAssertEqual(try event(sent.first).body[1]?.serialized,
                       #"{"id":"t9","signaling":{"type":"candidate","candidate":{"candidate":"a=candidate:2 1 udp 1 10.0.0.1 9 typ host","sdpMid":"1","sdpMLineIndex":1}}}"#)
        XCTAssertEqual(try event(sent.last).body[1]?["signaling"]?["type"], "removed-candidates")
        XCTAssertEqual(try event(sent.last).body[1]?["signaling"]?["candidates"]?[0]?["sdpMid"], "0")
    }

    func testRefusalsQuoteThePortal() throws {
        var refusedLogin = OWTPortalPeer.client()
        var portal = OWTPortalPeer()
        try portal.openV3(&refusedLogin)
        _ = try portal.take(&refusedLogin)
        try portal.send(#"430["error","Authentication failed"]"#, to: &refusedLogin)
        XCTAssertEqual(OWTPortalPeer.events(&refusedLogin), [.failed("OWT portal: login refused: Authentication failed")])
        XCTAssertEqual(portal.closed, [1])

        var refusedPublish = OWTPortalPeer.client()
        var second = OWTPortalPeer()
        _ = try second.logIn(&refusedPublish)
        _ = try refusedPublish.publish(offer: OWTPortalPeer.offer, now: start)
        try second.send(#"431["error","Permission denied"]"#, to: &refusedPublish)
        XCTAssertEqual(OWTPortalPeer.events(&refusedPublish), [.failed("OWT portal: publish refused: Permission denied")])

        var broken = OWTPortalPeer.client()
        var third = OWTPortalPeer()
        _ = try third.logIn(&broken)
        try third.send(#"42["progress",{"id":"t1","status":"error","data":"ICE failed"}]"#, to: &broken)
        XCTAssertEqual(OWTPortalPeer.events(&broken), [.failed("OWT portal: transport t1 failed: ICE failed")])
    }

    func testABadTokenFailsBeforeAnyConnection() {
        var client = OWTPortalClient(configuration: .init(credentials: .token("not-a-token")))
        XCTAssertNil(client.pollTransmit())
        XCTAssertEqual(client.pollEvent(), .failed("OWT portal: bad token: OWT token is not base64 of a JSON object"))
    }

    func testNotificationsBecomeEvents() throws {
        var client = OWTPortalPeer.client()
        var portal = OWTPortalPeer()
        _ = try portal.logIn(&client)
        try portal.send(
            #"42["participant",{"action":"join","data":{"id":"p3","role":"viewer","user":"carol"}}]"#,
            #"42["stream",{"id":"s8","status":"add","data":{"id":"s8","type":"forward","media":{"tracks":[{"type":"audio","source":"mic"},{"type":"video","source":"camera","parameters":{"resolution":{"width":320,"height":240}}}]},"info":{"owner":"p3"}}}]"#,
            #"42["stream",{"id":"r1-common","status":"update","data":{"field":"video.layout","value":[]}}]"#,
            #"42["text",{"from":"p3","to":"all","message":"hello 17"}]"#,
            #"42["stream",{"id":"s8","status":"remove"}]"#,
            #"42["participant",{"action":"leave","data":"p3"}]"#, to: &client)
        XCTAssertEqual(OWTPortalPeer.events(&client), [
            .participantJoined(OWTParticipant(id: "p3", role: "viewer", user: "carol")),
            .streamAdded(OWTStreamInfo(id: "s8", kind: .forward, owner: "p3", hasAudio: true, hasVideo: true, videoWidth: 320, videoHeight: 240)),
            .streamUpdated(id: "r1-common", field: "video.layout"),
            .text(from: "p3", to: "all", message: "hello 17"),
            .streamRemoved(id: "s8"),
            .participantLeft(id: "p3"),
        ])
        client.sendText("hi 18", now: start)
        XCTAssertEqual(try event(try portal.take(&client).first).body.serialized, #"["text",{"to":"all","message":"hi 18"}]"#)
    }

    func testEngineIO3ClientPingsAndGivesUpWithoutPong() throws {
        var client = OWTPortalPeer.client()
        var portal = OWTPortalPeer()
        _ = try portal.logIn(&client)
        XCTAssertEqual(client.pollTimeout(), start + .seconds(25))
        client.handleTimeout(now: start + .seconds(25))
        XCTAssertEqual(try portal.take(&client, now: start + .seconds(25)), ["2"])
        try portal.send("3", to: &client, now: start + .seconds(26))
        client.handleTimeout(now: start + .seconds(50))
        XCTAssertEqual(try portal.take(&client, now: start + .seconds(50)), ["2"])
        XCTAssertEqual(client.pollTimeout(), start + .seconds(75))
        // No pong within pingTimeout (60 s): the session ends and, once joined, a relogin is planned.
        client.handleTimeout(now: start + .seconds(110))
        try portal.pump(&client, now: start + .seconds(110))
        XCTAssertEqual(OWTPortalPeer.events(&client), [.reconnecting(reason: "Socket.IO session ended: no pong from the server within pingTimeout")])
    }

    func testEngineIO4ConnectsTheNamespaceAndAnswersPings() throws {
        var client = OWTPortalPeer.client(engineIO: .v4)
        var portal = OWTPortalPeer()
        try portal.pump(&client)
        XCTAssertEqual(portal.upgrade?.target, "/socket.io/?EIO=4&transport=websocket")
        try portal.send(#"0{"sid":"e4","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#, to: &client)
        XCTAssertEqual(try portal.take(&client), ["40"])
        try portal.send(#"40{"sid":"s4"}"#, to: &client)
        XCTAssert(try portal.take(&client).first?.hasPrefix(#"420["login","#) ?? false)
        try portal.send("2", to: &client)
        XCTAssertEqual(try portal.take(&client), ["3"])
    }

    func testReloginWithTheTicketAfterADrop() throws {
        var client = OWTPortalPeer.client()
        var portal = OWTPortalPeer()
        _ = try portal.logIn(&client)
        client.handle(.closed(1), now: start + .seconds(2))
        XCTAssertEqual(OWTPortalPeer.events(&client),
                       [.reconnecting(reason: "WebSocket closed by the server with 1006 connection ended without a Close frame")])
        try portal.pump(&client, now: start + .seconds(2))
        XCTAssertEqual(client.pollTimeout(), start + .seconds(3))
        client.handleTimeout(now: start + .seconds(3))
        try portal.openV3(&client, now: start + .seconds(3))
        XCTAssertEqual(portal.connects.count, 2)
        XCTAssertEqual(portal.streamID, 2)
        XCTAssertEqual(try portal.take(&client, now: start + .seconds(3)), [#"420["relogin","\#(OWTPortalPeer.ticket)"]"#])
        try portal.send(#"430["ok","bmV3LXRpY2tldA=="]"#, to: &client, now: start + .seconds(3))
        XCTAssertEqual(OWTPortalPeer.events(&client), [.acknowledged(request: "relogin", milliseconds: 0, sentAt: start + .seconds(3)), .relogged])
        XCTAssertEqual(client.reconnectionTicket, "bmV3LXRpY2tldA==")
    }

    func testTheTicketIsRefreshedAMinuteBeforeItExpires() throws {
        var client = OWTPortalPeer.client()
        var portal = OWTPortalPeer()
        _ = try portal.logIn(&client)
        // The ticket lives 300 s; refresh at 240 s (the Engine.IO pings come first, every 25 s).
        var now = start
        for _ in 0..<9 {
            now = try XCTUnwrap(client.pollTimeout())
            client.handleTimeout(now: now)
            let sent = try portal.take(&client, now: now)
            if sent == ["2"] { try portal.send("3", to: &client, now: now) } else { break }
        }
        XCTAssertEqual(now, start + .seconds(225))
        now = try XCTUnwrap(client.pollTimeout())
        XCTAssertEqual(now, start + .seconds(240))
        client.handleTimeout(now: now)
        XCTAssertEqual(try portal.take(&client, now: now), [#"421["refreshReconnectionTicket"]"#])
        try portal.send(#"431["ok","\#(OWTPortalPeer.ticket)"]"#, to: &client, now: now)
        XCTAssertEqual(OWTPortalPeer.events(&client), [.ticketRefreshed])
    }

    func testARequestWithoutAnAckTimesOut() throws {
        var client = OWTPortalPeer.client()
        var portal = OWTPortalPeer()
        _ = try portal.logIn(&client)
        _ = try client.publish(offer: OWTPortalPeer.offer, now: start + .seconds(1))
        _ = try portal.take(&client)
        XCTAssertEqual(client.pollTimeout(), start + .seconds(11))
        client.handleTimeout(now: start + .seconds(11))
        XCTAssertEqual(OWTPortalPeer.events(&client), [.failed("OWT portal: no answer to publish within 10.0 seconds")])
    }

    func testLogoutClosesTheConnection() throws {
        var client = OWTPortalPeer.client()
        var portal = OWTPortalPeer()
        _ = try portal.logIn(&client)
        client.logout(now: start)
        XCTAssertEqual(try portal.take(&client), [#"421["logout"]"#])
        try portal.send(#"431["ok"]"#, to: &client)
        XCTAssertEqual(OWTPortalPeer.events(&client), [.loggedOut])
        XCTAssertEqual(portal.closed, [1])
    }

    func testTokenFromTheRestAPIThenLogin() throws {
        let rest = OWTRestToken(server: try Endpoint(parsing: "http://127.0.0.1:3000"), serviceID: "svc1", serviceKey: "owt-service-key",
                                room: "r1", user: "alice", role: "presenter", timestampMilliseconds: 1_700_000_000_000, cnonce: 42)
        var client = OWTPortalClient(configuration: .init(credentials: .rest(rest)))
        guard case .connect(let id, let destination) = client.pollTransmit() else { return XCTFail("no connect") }
        XCTAssertEqual(destination, StreamDestination(host: "127.0.0.1", port: 3000, secure: false))
        client.handle(.connected(id), now: start)
        guard case .write(id, let bytes) = client.pollTransmit() else { return XCTFail("no request") }
        var parser = HTTPRequestParser()
        parser.append(bytes)
        let request = try XCTUnwrap(try parser.next())
        XCTAssertEqual(request.method, .post)
        XCTAssertEqual(request.target, "/v1/rooms/r1/tokens")
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), #"{"preference":{"isp":"isp","region":"region"},"user":"alice","role":"presenter"}"#)
        XCTAssertEqual(request.headers["Authorization"], OWTRestToken.authorization(serviceID: "svc1", serviceKey: "owt-service-key",
                                                                                    timestampMilliseconds: 1_700_000_000_000, cnonce: 42))
        client.handle(.data(id, HTTPResponse(status: 200, headers: ["Connection": "close"], body: Array(OWTPortalPeer.token.utf8)).serialized()), now: start)
        XCTAssertEqual(client.pollTransmit(), .close(id))
        var portal = OWTPortalPeer()
        try portal.openV3(&client)
        XCTAssertEqual(portal.destination, StreamDestination(host: "127.0.0.1", port: 8080, secure: false))
        XCTAssert(try portal.take(&client).first?.hasPrefix(#"420["login",{"token":"\#(OWTPortalPeer.token)""#) ?? false)
    }

    func testRestRefusalIsQuoted() throws {
        let rest = OWTRestToken(server: try Endpoint(parsing: "http://127.0.0.1:3000"), serviceID: "svc1", serviceKey: "wrong",
                                room: "r1", user: "alice", role: "presenter", timestampMilliseconds: 1, cnonce: 1)
        var client = OWTPortalClient(configuration: .init(credentials: .rest(rest)))
        guard case .connect(let id, _) = client.pollTransmit() else { return XCTFail("no connect") }
        client.handle(.connected(id), now: start)
        _ = client.pollTransmit()
        client.handle(.data(id, HTTPResponse(status: 401, headers: ["Connection": "close"], body: Array("Invalid signature\n".utf8)).serialized()), now: start)
        XCTAssertEqual(client.pollEvent(), .failed("OWT REST refused the token: 401 Invalid signature"))
    }

    /// The vector is Python's: base64(hmac.new(b"owt-service-key", b"1700000000000,42", sha256).hexdigest()).
    func testMAuthHeaderMatchesAKnownVector() {
        XCTAssertEqual(OWTRestToken.authorization(serviceID: "svc1", serviceKey: "owt-service-key", timestampMilliseconds: 1_700_000_000_000, cnonce: 42),
                       "MAuth realm=http://marte3.dit.upm.es,mauth_signature_method=HMAC_SHA256,mauth_serviceid=svc1,mauth_cnonce=42,"
                       + "mauth_timestamp=1700000000000,mauth_signature=MjQ3YTJiZDA4Y2ExMmQyNmVmMzFmYTRmOGRkZDIwODFmN2ZmZjk0YzE0Y2QzNGI1ODc1OTNjODVjNTg0YTk1OQ==")
        XCTAssertEqual(Hex.encodedLowercase(HmacSha256.mac(key: Array("owt-service-key".utf8), message: Array("1700000000000,42".utf8))),
                       "247a2bd08ca12d26ef31fa4f8ddd2081f7fff94c14cd34b587593c85c584a959")
    }
}

private extension Hex {
    static func encodedLowercase(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.flatMap { [digit($0 >> 4, uppercase: false), digit($0 & 0x0f, uppercase: false)] }, as: UTF8.self)
    }
}
