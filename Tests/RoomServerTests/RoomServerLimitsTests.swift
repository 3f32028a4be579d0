import Net
import RoomServer
import RTCBase
import Signaling
import WebRTCTestKit
import XCTest

final class RoomServerLimitsTests: XCTestCase {
    func testOversizedMessageClosesOnlyThatConnection() {
        var configuration = RoomServerConfiguration()
        configuration.maxMessageBytes = 1_000
        var harness = RoomHarness(configuration: configuration)
        let big = harness.connect(.socketIO)
        let other = harness.connect(.socketIO)
        let third = harness.connect(.socketIO)
        harness.send(.join(room: "r"), from: other)
        harness.send(.join(room: "r"), from: third)
        harness.send(.message(room: "r", data: .string(String(repeating: "x", count: 5_000))), from: big)
        XCTAssertEqual(harness.closeReason(big), "WebSocket closed by the server with 1009 frame of 5020 bytes exceeds 1000")
        XCTAssertEqual(harness.server.stats.rejects["message_too_large"], 1)
        harness.send(.message(room: "r", data: "still here"), from: other)
        XCTAssertEqual(harness.messages(third).last, .message(room: "r", data: "still here"))
        XCTAssertEqual(harness.server.connectionCount, 2)
    }

    func testGarbageFromOneClientDoesNotDisturbTheOthers() {
        var harness = RoomHarness()
        let good = harness.connect(.socketIO)
        let partner = harness.connect(.webSocket)
        harness.send(.join(room: "r"), from: good)
        harness.send(.join(room: "r"), from: partner)
        // A fresh connection that speaks nonsense instead of HTTP.
        harness.server.accept(99, now: harness.now)
        harness.sendRaw(Array("\u{0}\u{1}garbage\r\n\r\n".utf8), from: 99)
        // Bad JSON on an open plain WebSocket gets an error, not a crash.
        let rude = harness.connect(.webSocket)
        var socket = WebSocketConnection(role: .client, maskSeed: 5)
        socket.send(text: "{not json")
        harness.sendRaw(socket.pollTransmit() ?? [], from: rude)
        XCTAssertEqual(harness.messages(rude).first, .error(code: "bad_request", message: "expected {\"event\": \"join\"|\"leave\"|\"message\", \"room\": ...}"))
        harness.send(.message(room: "r", data: "hello"), from: good)
        XCTAssertEqual(harness.messages(partner).last, .message(room: "r", data: "hello"))
    }

    func testThousandsOfMutatedClientStreamsNeverCrashTheServer() {
        var harness = RoomHarness()
        let good = harness.connect(.socketIO)
        let partner = harness.connect(.socketIO)
        harness.send(.join(room: "r"), from: good)
        harness.send(.join(room: "r"), from: partner)
        // Seeds: what a real client sends, captured from a RoomClient.
        var client = RoomClient(endpoint: Endpoint(scheme: .http, host: "127.0.0.1", port: 1), transport: .socketIO, seed: 3)
        let upgrade = client.pollTransmit() ?? []
        var frames = WebSocketConnection(role: .client, maskSeed: 1)
        frames.send(text: "40")
        frames.send(text: "42[\"join\",\"r\"]")
        frames.send(text: "42[\"message\",\"r\",{\"type\":\"offer\",\"sdp\":\"v=0\"}]")
        let afterUpgrade = frames.pollTransmit() ?? []
        var fuzzer = Fuzzer(seeds: [upgrade, upgrade + afterUpgrade], seed: 9, maxLength: 600)
        var connection = 1_000
        fuzzer.run(iterations: 20_000) { input in
            connection += 1
            harness.server.accept(connection, now: harness.now)
            harness.server.receive(connection, input, now: harness.now)
            harness.server.closed(connection, now: harness.now)
            while harness.server.pollTransmit() != nil {}
        }
        harness.send(.message(room: "r", data: "alive"), from: good)
        XCTAssertEqual(harness.messages(partner).last, .message(room: "r", data: "alive"))
        XCTAssertEqual(harness.server.connectionCount, 2, "every fuzzed connection was cleaned up")
    }

    func testRateLimitRefusesThenClosesAPersistentFlooder() {
        var configuration = RoomServerConfiguration()
        configuration.maxMessagesPerSecond = 10
        configuration.maxRateViolations = 5
        var harness = RoomHarness(configuration: configuration)
        let flooder = harness.connect(.socketIO)
        harness.send(.join(room: "r"), from: flooder)
        for _ in 0..<40 { harness.send(.message(room: "r", data: "x"), from: flooder) }
        // A burst of 20 is allowed (twice the rate): join + 19 messages; then refusals.
        let errors = harness.messages(flooder).filter { if case .error(code: "rate_limited", _) = $0 { true } else { false } }
        XCTAssertEqual(errors.count, 4)
        XCTAssertEqual(harness.closeReason(flooder), "WebSocket closed by the server with 1008 rate limit exceeded")
    }

    func testHeartbeatKeepsAnsweringClientsAndClosesSilentOnes() throws {
        var harness = RoomHarness()
        let alive = harness.connect(.socketIO)
        let silent = harness.connect(.socketIO)
        harness.send(.join(room: "r"), from: alive)
        harness.send(.join(room: "r"), from: silent)
        let silentID = try XCTUnwrap(harness.clients[silent]?.memberID)
        harness.muted.insert(silent)
        // pingInterval 25 s + pingTimeout 20 s: the silent one is gone by 46 s.
        harness.advance(by: .seconds(50))
        XCTAssertNil(harness.closeReason(alive))
        XCTAssertEqual(harness.messages(alive).last, .bye(room: "r", id: silentID))
        XCTAssertEqual(harness.server.connectionCount, 1)
    }

    func testConnectionLimitAnswers503AndShutdownClosesWith1001() {
        var configuration = RoomServerConfiguration()
        configuration.maxConnections = 2
        var harness = RoomHarness(configuration: configuration)
        let first = harness.connect(.socketIO)
        _ = harness.connect(.webSocket)
        let refused = harness.connect(.socketIO)
        XCTAssertTrue(harness.closeReason(refused)?.contains("503") ?? false, harness.closeReason(refused) ?? "no reason")
        XCTAssertEqual(harness.server.stats.rejects["too_many_connections"], 1)
        harness.server.shutdown(now: harness.now)
        harness.settle()
        XCTAssertEqual(harness.closeReason(first), "WebSocket closed by the server with 1001 server shutting down")
    }

    /// A plain HTTP GET on a new connection (id 50) and the server's response.
    private func get(_ target: String, from harness: inout RoomHarness) throws -> HTTPResponse {
        harness.server.accept(50, now: harness.now)
        harness.server.receive(50, HTTPRequest(method: .get, target: target, headers: ["Host": "x"]).serialized(), now: harness.now)
        var bytes: [UInt8] = []
        while let output = harness.server.pollTransmit() { if case .write(50, let chunk) = output { bytes += chunk } }
        var parser = HTTPResponseParser()
        parser.append(bytes)
        return try XCTUnwrap(try parser.next())
    }

    func testPeerPageIsServedAsHTMLSpeakingThePlainWebSocketProtocol() throws {
        var harness = RoomHarness()
        let response = try get("/peer?rooms=a,b", from: &harness)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["Content-Type"], "text/html; charset=utf-8")
        let page = response.bodyText
        XCTAssertTrue(page.contains("ws://${location.host}/ws"), "joins over the plain WebSocket variant")
        XCTAssertTrue(page.contains("pc.getStats()"))
        XCTAssertTrue(page.hasSuffix("</html>"))
    }

    func testStatsEndpointServesJSON() throws {
        var harness = RoomHarness()
        let member = harness.connect(.socketIO)
        harness.send(.join(room: "r"), from: member)
        let response = try get("/stats", from: &harness)
        XCTAssertEqual(response.status, 200)
        let stats = try JSONValue(parsing: response.bodyText)
        XCTAssertEqual(stats["joins"], 1)
        XCTAssertEqual(stats["rooms"], 1)
        XCTAssertEqual(stats["members"], 1)
        XCTAssertEqual(stats["connections"], 2)
    }

    /// A client that does not read: once the driver holds more than the limit unsent for
    /// it (bytes or messages), it is dropped at once, counted, and its room hears bye.
    func testAClientThatDoesNotReadIsDroppedOverTheUnsentLimits() throws {
        var configuration = RoomServerConfiguration()
        configuration.maxQueuedBytes = 64 * 1024
        configuration.maxQueuedMessages = 50
        var harness = RoomHarness(configuration: configuration)
        let reader = harness.connect(.socketIO)
        let slow = harness.connect(.socketIO)
        let other = harness.connect(.webSocket)
        harness.send(.join(room: "r"), from: reader)
        harness.send(.join(room: "r"), from: slow)
        harness.send(.join(room: "s"), from: other)
        let slowID = try XCTUnwrap(harness.clients[slow]?.memberID)
        harness.server.unsent(slow, bytes: 64 * 1024, messages: 50, now: harness.now)
        XCTAssertEqual(harness.server.pollTransmit(), nil, "at the limits, not over them: kept")
        harness.server.unsent(slow, bytes: 64 * 1024 + 1, messages: 1, now: harness.now)
        XCTAssertEqual(harness.server.pollTransmit(), .abort(slow), "dropped at once, unsent bytes and all")
        harness.settle()
        XCTAssertEqual(harness.messages(reader).last, .bye(room: "r", id: slowID))
        harness.server.unsent(other, bytes: 10, messages: 51, now: harness.now)
        XCTAssertEqual(harness.server.pollTransmit(), .abort(other))
        XCTAssertEqual(harness.server.stats.rejects["slow_reader"], 2)
        XCTAssertEqual(harness.server.connectionCount, 1)
    }

    /// Bare connects and half-sent requests do not stay: with no complete request within
    /// the handshake timeout (5 s) the connection is closed and counted.
    func testAConnectionWithoutARequestIsClosedAfterTheHandshakeTimeout() {
        var harness = RoomHarness()
        harness.server.accept(90, now: harness.now)
        harness.server.accept(91, now: harness.now)
        harness.server.receive(91, Array("GET /stats HTTP/1.1\r\nHo".utf8), now: harness.now)
        let member = harness.connect(.socketIO)
        harness.send(.join(room: "r"), from: member)
        harness.advance(by: .seconds(4))
        XCTAssertEqual(harness.server.connectionCount, 3)
        harness.advance(by: .seconds(2))
        XCTAssertEqual(harness.server.connectionCount, 1, "only the upgraded member is left")
        XCTAssertEqual(harness.server.stats.rejects["http_timeout"], 2)
        XCTAssertNil(harness.closeReason(member))
    }

    /// Reconnecting does not buy a fresh allowance: the per-address bucket (15/s, bursts
    /// of 30) spans every connection from that address, while another address is served.
    func testTheRateLimitPerAddressHoldsAcrossReconnects() {
        var configuration = RoomServerConfiguration()
        configuration.maxMessagesPerSecond = 10
        configuration.maxMessagesPerSecondPerAddress = 15
        var harness = RoomHarness(configuration: configuration)
        let listener = harness.connect(.socketIO, from: "10.0.0.2")
        harness.send(.join(room: "r"), from: listener)
        for _ in 0..<5 {
            let flooder = harness.connect(.socketIO, from: "10.0.0.1")
            harness.send(.join(room: "r"), from: flooder)
            // Each connection's own bucket holds 20: its join and 19 messages.
            for _ in 0..<19 { harness.send(.message(room: "r", data: "x"), from: flooder) }
            harness.drop(flooder)
        }
        // 30 tokens for 10.0.0.1: join + 19 messages, then join + 9 messages; then nothing.
        let relayed = harness.messages(listener).filter { if case .message = $0 { true } else { false } }
        XCTAssertEqual(relayed.count, 28)
        XCTAssertGreaterThan(harness.server.stats.rejects["address_rate_limited"] ?? 0, 0)
        XCTAssertNil(harness.server.stats.rejects["rate_limited"])
        // A second later the address has 15 tokens again.
        harness.advance(by: .seconds(1))
        let returning = harness.connect(.socketIO, from: "10.0.0.1")
        harness.send(.join(room: "r"), from: returning)
        harness.send(.message(room: "r", data: "x"), from: returning)
        XCTAssertEqual(harness.messages(listener).filter { if case .message = $0 { true } else { false } }.count, 29)
    }
}
