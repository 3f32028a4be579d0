import Net
import RTCBase
import Signaling
import XCTest

/// Janus's end of one WebSocket, for driving a `JanusWebSocketCallSetup` without a
/// server: it answers the opening handshake, reads the client's text messages as JSON
/// and sends replies and events as text frames.
struct JanusSocketPeer {
    var socket = WebSocketConnection(role: .server)
    /// The upgrade request the client sent.
    var upgrade: HTTPRequest?
    /// How the client ended the socket, once it did.
    var closed: WebSocketEvent?
    private var parser = HTTPRequestParser()

    /// Reads the client's upgrade request and answers it with `response` (by default
    /// Janus's: 101 selecting `janus-protocol`).
    mutating func accept(_ setup: inout JanusWebSocketCallSetup, supported: [String] = [JanusWebSocketCallSetup.subprotocol],
                         response: HTTPResponse? = nil, now: Instant = Exchange.start) throws {
        parser.append(try XCTUnwrap(setup.pollTransmit(), "no upgrade request"))
        let request = try XCTUnwrap(try parser.next())
        upgrade = request
        let answer = response ?? WebSocketHandshake.serverResponse(to: request, supported: supported).response
        setup.handle(answer.serialized(), now: now)
    }

    /// Every message the client sent since the last call, as JSON.
    mutating func received(_ setup: inout JanusWebSocketCallSetup, now: Instant = Exchange.start) throws -> [JSONValue] {
        while let bytes = setup.pollTransmit() { socket.handle(bytes, now: now) }
        var messages: [JSONValue] = []
        while let event = socket.pollEvent() {
            switch event {
            case .text(let text): messages.append(try JSONValue(parsing: text))
            case .closed: closed = event
            case .binary, .pong: XCTFail("the client sent \(event)")
            }
        }
        return messages
    }

    /// The one message the client sent since the last call.
    mutating func next(_ setup: inout JanusWebSocketCallSetup, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let messages = try received(&setup)
        XCTAssertEqual(messages.count, 1, "messages: \(messages)", file: file, line: line)
        return try XCTUnwrap(messages.first, file: file, line: line)
    }

    /// Sends `json` as one text message, with `transaction` added when given.
    mutating func send(_ json: JSONValue, transaction: JSONValue? = nil, to setup: inout JanusWebSocketCallSetup, now: Instant = Exchange.start) {
        var body = json
        if case .object(let members) = json, let transaction { body = .object(members + [JSONValue.Member("transaction", transaction)]) }
        socket.send(text: body.serialized)
        deliver(to: &setup, now: now)
    }

    /// Hands what the server side wrote to the client.
    mutating func deliver(to setup: inout JanusWebSocketCallSetup, now: Instant = Exchange.start) {
        while let bytes = socket.pollTransmit() { setup.handle(bytes, now: now) }
    }

    /// Every event the adapter has queued.
    static func events(_ setup: inout JanusWebSocketCallSetup) -> [CallSetupEvent] {
        var events: [CallSetupEvent] = []
        while let event = setup.pollEvent() { events.append(event) }
        return events
    }
}
