import Net
import RTCBase
import WebRTCTestKit
import XCTest

/// A Socket.IO client and server session, each on its own WebSocketConnection, joined
/// in memory and stepped in virtual time.
struct SocketIOLink {
    var clientSocket = WebSocketConnection(role: .client, maskSeed: 1)
    var serverSocket: WebSocketConnection
    var client: SocketIOClientSession
    var server: SocketIOServerSession
    var clientEvents: [SocketIOClientEvent] = []
    var serverEvents: [SocketIOServerEvent] = []
    /// Text frames the server session sent, in order.
    var serverTexts: [String] = []
    /// Close codes each socket reported.
    var clientClose: UInt16?
    var serverClose: UInt16?
    /// Drop everything the client sends (a client that went silent).
    var clientMuted = false

    init(configuration: SocketIOServerSession.Configuration = .init(), namespace: String = "/", now: Instant = .zero) {
        serverSocket = WebSocketConnection(role: .server, maxMessageSize: configuration.maxPayload)
        client = SocketIOClientSession(namespace: namespace)
        server = SocketIOServerSession(configuration: configuration, seed: 7, now: now)
    }

    mutating func pump(now: Instant) {
        var moved = true
        while moved {
            moved = false
            while let output = client.pollOutput() { clientSocket.perform(output, now: now); moved = true }
            while let output = server.pollOutput() {
                if case .message(.text(let text)) = output { serverTexts.append(text) }
                serverSocket.perform(output, now: now)
                moved = true
            }
            if let bytes = clientSocket.pollTransmit() {
                if !clientMuted { serverSocket.handle(bytes, now: now) }
                moved = true
            }
            if let bytes = serverSocket.pollTransmit() { clientSocket.handle(bytes, now: now); moved = true }
            while let event = serverSocket.pollEvent() {
                moved = true
                switch event {
                case .text(let text): server.handle(.text(text), now: now)
                case .binary(let bytes): server.handle(.binary(bytes), now: now)
                case .closed(let code, let reason, _): serverClose = code; server.handleClosed(reason: reason)
                case .pong: break
                }
            }
            while let event = clientSocket.pollEvent() {
                moved = true
                switch event {
                case .text(let text): client.handle(.text(text), now: now)
                case .binary(let bytes): client.handle(.binary(bytes), now: now)
                case .closed(let code, let reason, _): clientClose = code; client.handleClosed(reason: reason)
                case .pong: break
                }
            }
            while let event = client.pollEvent() { clientEvents.append(event); moved = true }
            while let event = server.pollEvent() { serverEvents.append(event); moved = true }
        }
    }

    /// Steps virtual time to `end`, firing every timer that comes due on the way.
    mutating func run(from start: Instant, to end: Instant) {
        var now = start
        pump(now: now)
        while true {
            let due = [client.pollTimeout(), server.pollTimeout(), clientSocket.pollTimeout(), serverSocket.pollTimeout()]
                .compactMap { $0 }.filter { $0 <= end }.min()
            guard let due else { return }
            now = max(now, due)
            client.handleTimeout(now: now)
            server.handleTimeout(now: now)
            clientSocket.handleTimeout(now: now)
            serverSocket.handleTimeout(now: now)
            pump(now: now)
        }
    }
}

final class SocketIOSessionTests: XCTestCase {
    let t0 = Instant.zero

    func testClientOpensConnectsAndExchangesEventsWithAcks() throws {
        var link = SocketIOLink()
        link.client.emit("join", ["room1"], wantsAck: true)  // buffered until connected
        link.pump(now: t0)
        XCTAssertTrue(link.serverTexts[0].hasPrefix(#"0{"sid":""#))
        XCTAssertTrue(link.serverTexts[0].hasSuffix(#","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#))
        guard case .connected(let socketId) = link.clientEvents.last, case .opened(let open) = link.clientEvents.first else {
            return XCTFail("client not connected: \(link.clientEvents)")
        }
        XCTAssertEqual(open.sid, link.server.sid)
        XCTAssertEqual(link.serverTexts[1], "40{\"sid\":\"\(socketId)\"}")
        XCTAssertNotEqual(socketId, link.server.sid, "the socket id is not the Engine.IO sid")
        XCTAssertEqual(link.serverEvents.count, 2)
        guard case .event(let join) = link.serverEvents[1] else { return XCTFail("no join event") }
        XCTAssertEqual(join.name, "join")
        XCTAssertEqual(join.args, ["room1"])
        XCTAssertEqual(join.ackId, 0)
        link.server.ack(0, args: ["joined", 2])
        link.server.emit("message", [.object(["type": "offer", "sdp": "v=0\r\n"])], ackId: 5)
        link.pump(now: t0)
        XCTAssertEqual(Array(link.serverTexts.suffix(2)), [#"430["joined",2]"#, #"425["message",{"type":"offer","sdp":"v=0\r\n"}]"#])
        XCTAssertEqual(link.clientEvents.suffix(2), [.ack(SocketIOMessage(name: nil, args: ["joined", 2], ackId: 0)),
                                                     .event(SocketIOMessage(name: "message", args: [.object(["type": "offer", "sdp": "v=0\r\n"])], ackId: 5))])
    }

    func testBinaryEventsAreReassembledBothWays() {
        var link = SocketIOLink()
        link.pump(now: t0)
        link.client.emit("upload", ["name", SocketIOPacket.placeholder(1), SocketIOPacket.placeholder(0)], attachments: [[1, 2], [3]])
        link.pump(now: t0)
        guard case .event(let upload) = link.serverEvents.last else { return XCTFail("no upload") }
        XCTAssertEqual(upload.attachments, [[1, 2], [3]])
        XCTAssertEqual(upload.args[1], SocketIOPacket.placeholder(1))
        link.server.emit("file", [SocketIOPacket.placeholder(0)], attachments: [[9, 9, 9]])
        link.pump(now: t0)
        XCTAssertEqual(link.serverTexts.last, #"451-["file",{"_placeholder":true,"num":0}]"#)
        guard case .event(let file) = link.clientEvents.last else { return XCTFail("no file") }
        XCTAssertEqual(file.attachments, [[9, 9, 9]])
    }

    func testServerPingsAreAnsweredAndKeepTheSessionAlive() {
        var link = SocketIOLink()
        link.run(from: t0, to: t0 + .seconds(100))
        XCTAssertEqual(link.serverTexts.filter { $0 == "2" }.count, 4, "a ping every 25 s")
        XCTAssertFalse(link.server.isClosed)
        XCTAssertEqual(link.client.state, .connected)
        XCTAssertEqual(link.server.pollTimeout(), t0 + .seconds(125))
    }

    func testServerClosesAClientThatStopsAnsweringAfterPingTimeout() {
        var link = SocketIOLink()
        link.pump(now: t0)
        link.clientMuted = true
        link.run(from: t0, to: t0 + .seconds(44))
        XCTAssertFalse(link.server.isClosed, "ping at 25 s, deadline at 45 s")
        link.run(from: t0 + .seconds(44), to: t0 + .seconds(46))
        XCTAssertTrue(link.server.isClosed)
        XCTAssertEqual(link.serverEvents.last, .closed(reason: "ping timeout"))
    }

    func testClientDropsASilentServerAfterIntervalPlusTimeout() {
        var client = SocketIOClientSession()
        client.handle(.text(#"0{"sid":"s","upgrades":[],"pingInterval":300,"pingTimeout":200,"maxPayload":100}"#), now: t0)
        XCTAssertEqual(client.pollTimeout(), t0 + .milliseconds(500))
        client.handle(.text("2"), now: t0 + .milliseconds(300))
        XCTAssertEqual(client.pollTimeout(), t0 + .milliseconds(800))
        client.handleTimeout(now: t0 + .milliseconds(800))
        XCTAssertEqual(client.state, .closed)
        var outputs: [SocketIOOutput] = []
        while let output = client.pollOutput() { outputs.append(output) }
        XCTAssertEqual(outputs, [.message(.text("40")), .message(.text("3")),
                                 .close(code: 1001, reason: "no ping from the server within pingInterval + pingTimeout")])
    }

    func testUnknownNamespaceIsRefusedWithInvalidNamespace() {
        var link = SocketIOLink(namespace: "/ns")
        link.pump(now: t0)
        XCTAssertEqual(link.serverTexts.last, #"44/ns,{"message":"Invalid namespace"}"#)
        XCTAssertTrue(link.clientEvents.contains(.connectFailed(.object(["message": "Invalid namespace"]))))
        XCTAssertEqual(link.client.state, .closed)
    }

    func testEventBeforeConnectClosesTheSession() {
        var server = SocketIOServerSession(seed: 1, now: t0)
        server.handle(.text(#"42["join","r"]"#), now: t0)
        XCTAssertTrue(server.isClosed)
        var outputs: [SocketIOOutput] = []
        while let output = server.pollOutput() { outputs.append(output) }
        guard case .close(let code, _) = outputs.last else { return XCTFail("no close") }
        XCTAssertEqual(code, 1002)
    }

    func testOversizedFrameClosesWith1009() {
        var link = SocketIOLink(configuration: .init(maxPayload: 100))
        link.pump(now: t0)
        link.client.emit("message", [.string(String(repeating: "x", count: 200))])
        link.pump(now: t0)
        XCTAssertEqual(link.serverClose, 1009)
        XCTAssertEqual(link.clientClose, 1009)
        XCTAssertTrue(link.server.isClosed)
        XCTAssertEqual(link.client.state, .closed)
    }

    func testBadJSONClosesTheSession() {
        var server = SocketIOServerSession(seed: 1, now: t0)
        server.handle(.text("40"), now: t0)
        server.handle(.text(#"42["join","#), now: t0)
        XCTAssertTrue(server.isClosed)
        XCTAssertEqual(server.pollEvent().map { if case .connected = $0 { true } else { false } }, true)
    }

    func testUpgradeRequestNeedsEngineIOVersion4OverWebSocket() throws {
        var generator = SeededGenerator(seed: 3)
        func answer(_ url: String) throws -> HTTPResponse {
            let key = WebSocketHandshake.makeKey(using: &generator)
            let request = WebSocketHandshake.clientRequest(endpoint: try Endpoint(parsing: url), key: key)
            return SocketIOServerSession.upgradeResponse(to: request)
        }
        let accepted = try answer("ws://127.0.0.1:3000" + SocketIOClientSession.path)
        XCTAssertEqual(accepted.status, 101)
        let old = try answer("ws://127.0.0.1:3000/socket.io/?EIO=3&transport=websocket")
        XCTAssertEqual(old.status, 400)
        XCTAssertEqual(old.bodyText, #"{"code":5,"message":"Unsupported protocol version"}"#)
        XCTAssertEqual(try answer("ws://h/socket.io/?EIO=4&transport=polling").bodyText, #"{"code":0,"message":"Transport unknown"}"#)
        XCTAssertEqual(try answer("ws://h/other/?EIO=4&transport=websocket").status, 400)
    }

    func testServerAndClientSessionsSurviveFuzzedMessages() {
        let seeds = ["40", #"42["join","room1"]"#, #"451-["f",{"_placeholder":true,"num":0}]"#, "3", #"43[1]"#, "41"].map { Array($0.utf8) }
        var fuzzer = Fuzzer(seeds: seeds, seed: 8, maxLength: 120)
        var closed = 0
        for round in 0..<2_000 {
            var server = SocketIOServerSession(configuration: .init(maxPayload: 100), seed: UInt64(round), now: t0)
            server.handle(.text("40"), now: t0)
            fuzzer.run(iterations: 10) { input in
                let message: WebSocketMessage = String(validating: input, as: UTF8.self).map { .text($0) } ?? .binary(input)
                server.handle(message, now: t0)
            }
            while server.pollOutput() != nil {}
            if server.isClosed { closed += 1 }
            var client = SocketIOClientSession()
            client.handle(.text(#"0{"sid":"s","upgrades":[],"pingInterval":300,"pingTimeout":200,"maxPayload":100}"#), now: t0)
            client.handle(.text(#"40{"sid":"x"}"#), now: t0)
            fuzzer.run(iterations: 10) { input in
                let message: WebSocketMessage = String(validating: input, as: UTF8.self).map { .text($0) } ?? .binary(input)
                client.handle(message, now: t0)
            }
            while client.pollOutput() != nil {}
            if client.state == .closed { closed += 1 }
        }
        XCTAssertGreaterThan(closed, 2_000, "garbage ends most sessions")
    }
}
