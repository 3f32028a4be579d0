import Net
import RTCBase
import XCTest

final class WebSocketConnectionTests: XCTestCase {
    let now = Instant.zero

    func events(_ connection: inout WebSocketConnection) -> [WebSocketEvent] {
        var out: [WebSocketEvent] = []
        while let event = connection.pollEvent() { out.append(event) }
        return out
    }

    /// Moves bytes between the two until both are quiet.
    func pump(_ a: inout WebSocketConnection, _ b: inout WebSocketConnection) {
        while true {
            var moved = false
            if let bytes = a.pollTransmit() { b.handle(bytes, now: now); moved = true }
            if let bytes = b.pollTransmit() { a.handle(bytes, now: now); moved = true }
            if !moved { return }
        }
    }

    func testHandshakeWithSubprotocolThenMessagesBothWays() throws {
        var generator = SeededGenerator(seed: 9)
        let endpoint = try Endpoint(parsing: "ws://127.0.0.1:8188/")
        var handshake = WebSocketClientHandshake(endpoint: endpoint, protocols: ["janus-protocol"], generator: &generator)
        var http = HTTPServerConnection(now: .zero)
        http.handle(handshake.pollTransmit() ?? [], now: now)
        guard case .request(let request) = http.pollEvent() else { return XCTFail("no upgrade request") }
        XCTAssertEqual(request.headers["sec-websocket-protocol"], "janus-protocol")
        XCTAssertEqual(request.headers["sec-websocket-version"], "13")
        let (response, chosen) = WebSocketHandshake.serverResponse(to: request, supported: ["janus-protocol"])
        XCTAssertEqual(response.status, 101)
        XCTAssertEqual(chosen, "janus-protocol")
        http.respond(response, now: now)
        XCTAssertTrue(http.isUpgraded)
        var serverBytes = http.pollTransmit() ?? []
        var server = WebSocketConnection(role: .server)
        server.send(text: "first")
        serverBytes += server.pollTransmit() ?? []  // a frame right behind the 101
        guard case .accepted(let selected, let remaining) = handshake.handle(serverBytes) else {
            return XCTFail("handshake not accepted")
        }
        XCTAssertEqual(selected, "janus-protocol")
        var client = WebSocketConnection(role: .client, maskSeed: 1)
        client.handle(remaining, now: now)
        XCTAssertEqual(events(&client), [.text("first")])
        client.send(text: "{\"janus\":\"keepalive\"}")
        client.send(binary: [1, 2, 3])
        pump(&client, &server)
        XCTAssertEqual(events(&server), [.text("{\"janus\":\"keepalive\"}"), .binary([1, 2, 3])])
    }

    func testServerRefusesUpgradeWithoutKeyAndClientReportsIt() throws {
        let bad = HTTPRequest(method: .get, target: "/", headers: ["Host": "h", "Upgrade": "websocket", "Connection": "Upgrade",
                                                                 "Sec-WebSocket-Version": "13"])
        XCTAssertEqual(WebSocketHandshake.serverResponse(to: bad).response.status, 400)
        let plain = HTTPRequest(method: .get, target: "/", headers: ["Host": "h"])
        XCTAssertEqual(WebSocketHandshake.serverResponse(to: plain).response.status, 426)

        var generator = SeededGenerator(seed: 1)
        var handshake = WebSocketClientHandshake(endpoint: try Endpoint(parsing: "ws://h/socket.io/?EIO=3"), generator: &generator)
        let outcome = handshake.handle(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
        guard case .rejected(let error) = outcome else { return XCTFail("expected rejection") }
        XCTAssertEqual(error.response?.status, 400)

        var wrongAccept = WebSocketClientHandshake(endpoint: try Endpoint(parsing: "ws://h/"), generator: &generator)
        let forged = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: AAAA\r\n\r\n"
        guard case .rejected(let mismatch) = wrongAccept.handle(Array(forged.utf8)) else { return XCTFail("forged accept passed") }
        XCTAssertTrue(mismatch.message.contains("Sec-WebSocket-Accept"))

        var silent = WebSocketClientHandshake(endpoint: try Endpoint(parsing: "ws://h/"), generator: &generator)
        XCTAssertEqual(silent.handleEOF(), .rejected(WebSocketHandshakeError("server closed the connection without an answer")))
    }

    func testClientMasksWithSeededKeysSoOutputIsReproducible() {
        var first = WebSocketConnection(role: .client, maskSeed: 42)
        var second = WebSocketConnection(role: .client, maskSeed: 42)
        first.send(text: "same")
        second.send(text: "same")
        let bytes = first.pollTransmit() ?? []
        XCTAssertEqual(bytes, second.pollTransmit())
        XCTAssertEqual(bytes[1], 0x80 | 4)  // MASK=1 len=4
        XCTAssertNotEqual(Array(bytes[6...]), Array("same".utf8), "payload is masked")
    }

    func testFragmentedMessageWithInterleavedPingIsReassembledAndPingAnswered() {
        var client = WebSocketConnection(role: .client)
        var wire: [UInt8] = []
        WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)).write(into: &wire)
        WebSocketFrame(opcode: .ping, payload: [7]).write(into: &wire)
        WebSocketFrame(opcode: .continuation, payload: Array("lo ☃".utf8)).write(into: &wire)
        for byte in wire { client.handle([byte], now: now) }
        XCTAssertEqual(events(&client), [.text("Hello ☃")])
        let pong = client.pollTransmit() ?? []
        XCTAssertEqual(Array(pong.prefix(2)), [0x8a, 0x81])  // FIN pong, MASK=1 len=1
        XCTAssertEqual(pong.count, 7)
    }

    func testFragmentedSendRoundTrips() {
        var client = WebSocketConnection(role: .client, maskSeed: 5)
        var server = WebSocketConnection(role: .server)
        let big = (0..<1000).map { UInt8($0 & 0xff) }
        client.send(binary: big, fragmentSize: 300)
        let bytes = client.pollTransmit() ?? []
        XCTAssertEqual(bytes.count, 1000 + 4 * (2 + 4) + 3 * 2)  // 4 frames: header, key, 3 of them with 16-bit length
        server.handle(bytes, now: now)
        XCTAssertEqual(events(&server), [.binary(big)])
    }

    func testCloseHandshakeStartedByClient() {
        var client = WebSocketConnection(role: .client)
        var server = WebSocketConnection(role: .server)
        client.close(code: 1000, reason: "bye", now: now)
        XCTAssertEqual(client.state, .closing)
        client.send(text: "ignored after close")
        pump(&client, &server)
        XCTAssertEqual(events(&server), [.closed(code: 1000, reason: "bye", byPeer: true)])
        XCTAssertEqual(events(&client), [.closed(code: 1000, reason: "", byPeer: true)])
        XCTAssertTrue(client.isClosed && server.isClosed)
    }

    func testCloseWithoutAnswerTimesOutAsAbnormal() {
        var client = WebSocketConnection(role: .client)
        client.close(now: now)
        XCTAssertEqual(client.pollTimeout(), now + .seconds(5))
        client.handleTimeout(now: now + .seconds(5))
        XCTAssertEqual(events(&client), [.closed(code: 1006, reason: "no Close from the peer in time", byPeer: false)])
    }

    func testViolationsCloseWithTheRightCode() {
        func closeCode(server maxSize: Int = 1024, _ frames: [WebSocketFrame]) -> UInt16? {
            var server = WebSocketConnection(role: .server, maxMessageSize: maxSize)
            var wire: [UInt8] = []
            for frame in frames { frame.write(into: &wire) }
            server.handle(wire, now: now)
            let sent = server.pollTransmit() ?? []
            guard sent.count >= 4, sent[0] == 0x88 else { return nil }
            return UInt16(sent[2]) << 8 | UInt16(sent[3])
        }
        let key: UInt32 = 0x0102_0304
        XCTAssertEqual(closeCode([WebSocketFrame(opcode: .text, maskingKey: key, payload: [0xff, 0xfe])]), 1007)
        XCTAssertEqual(closeCode([WebSocketFrame(opcode: .binary, maskingKey: key, payload: Array(repeating: 0, count: 1025))]), 1009)
        XCTAssertEqual(closeCode([WebSocketFrame(fin: false, opcode: .binary, maskingKey: key, payload: Array(repeating: 0, count: 1000)),
                                  WebSocketFrame(opcode: .continuation, maskingKey: key, payload: Array(repeating: 0, count: 100))]), 1009)
        XCTAssertEqual(closeCode([WebSocketFrame(opcode: .continuation, maskingKey: key, payload: [1])]), 1002)
        XCTAssertEqual(closeCode([WebSocketFrame(fin: false, opcode: .text, maskingKey: key, payload: [0x41]),
                                  WebSocketFrame(opcode: .text, maskingKey: key, payload: [0x41])]), 1002)
        XCTAssertEqual(closeCode([WebSocketFrame(opcode: .close, maskingKey: key, payload: [0x03])]), 1002)
        XCTAssertEqual(closeCode([WebSocketFrame(opcode: .close, maskingKey: key, payload: [0x03, 0xed])]), 1002)  // 1005 may not be sent
        XCTAssertEqual(closeCode([WebSocketFrame(opcode: .close, maskingKey: key, payload: [0x03, 0xe8, 0xff])]), 1007)
        XCTAssertEqual(closeCode([WebSocketFrame(opcode: .binary, payload: [1])]), 1002)  // unmasked from a client
    }

    func testEOFWithoutCloseIsAbnormal() {
        var server = WebSocketConnection(role: .server)
        server.handleEOF()
        XCTAssertEqual(events(&server), [.closed(code: 1006, reason: "connection ended without a Close frame", byPeer: true)])
    }
}
