import Net
import RTCBase
import SDP
import Signaling

/// What signaling reads from a server or a client: SDP, HTTP, WebSocket, Engine.IO and
/// Socket.IO, the room server's messages, JSON.
extension FuzzTarget {
    /// Session descriptions (RFC 8866) as offers and answers carry them.
    public static let sdp = FuzzTarget(name: "sdp", fixtures: [FixtureSelection("Tests/Fixtures", suffix: ".sdp")], seeds: { [] }, run: { input in
        guard let description = try? SessionDescription.parse(bytes: input) else { return false }
        _ = description.media.map { ($0.codecs, $0.ssrcs, $0.candidates, $0.direction) }
        return true
    })

    /// HTTP/1.1 requests as the room server reads them, with a WebSocket upgrade answered
    /// (RFC 9112, RFC 6455 4.2), and responses as WHIP, SRS and Janus clients read them, fed
    /// in two pieces (RFC 9112 6, chunked bodies 7.1).
    public static let http = FuzzTarget(name: "http", fixtures: [FixtureSelection("Tests/Fixtures", suffix: ".http")], seeds: {
        [Array("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x\r\nabc\r\n0\r\nT: 1\r\n\r\n".utf8),
         Array("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8)]
    }, run: { input in
        let limits = HTTPLimits(maxHeaderBytes: 1024, maxBodyBytes: 1024)
        var accepted = false
        var parser = HTTPRequestParser(limits: limits)
        parser.append(input)
        while let request = try? parser.next() {
            accepted = true
            _ = WebSocketHandshake.serverResponse(to: request, supported: ["janus-protocol"])
        }
        var client = HTTPClientConnection(limits: limits)
        client.send(HTTPRequest(method: .get, target: "/"), now: .zero)
        client.handle(input[..<(input.count / 2)], now: .zero)
        client.handle(input[(input.count / 2)...], now: .zero)
        client.handleEOF()
        while let event = client.pollEvent() {
            guard case .response(let response, _) = event else { continue }
            accepted = true
            _ = try? WebSocketHandshake.validate(response: response, key: "dGhlIHNhbXBsZSBub25jZQ==", protocols: ["janus-protocol"])
        }
        return accepted
    })

    /// WebSocket frames (RFC 6455 5) as a server reads masked ones and a client unmasked ones.
    public static let websocket = FuzzTarget(name: "websocket", seeds: {
        [(WebSocketFrame.Opcode.text, true), (.binary, false), (.close, true), (.ping, false)].map { opcode, masked in
            var wire: [UInt8] = []
            WebSocketFrame(fin: opcode != .text, opcode: opcode, maskingKey: masked ? 0x1234_5678 : nil,
                           payload: opcode == .close ? WebSocketFrame.closePayload(code: 1000, reason: "x") : Array("héllo".utf8))
                .write(into: &wire)
            WebSocketFrame(opcode: .continuation, maskingKey: masked ? 0x0a0b_0c0d : nil, payload: Array(repeating: 0x41, count: 130))
                .write(into: &wire)
            return wire
        }
    }, run: { input in
        var accepted = false
        for role in [WebSocketConnection.Role.server, .client] {
            var connection = WebSocketConnection(role: role, maxMessageSize: 512)
            connection.handle(input, now: .zero)
            while let event = connection.pollEvent() {
                if case .closed = event {} else { accepted = true }
            }
        }
        return accepted
    })

    /// Engine.IO v4 packets and the Socket.IO v5 packets inside them.
    public static let socketio = FuzzTarget(name: "socketio", seeds: {
        [#"0{"sid":"a","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#, "40", #"40{"sid":"x"}"#,
         #"42["message",{"type":"offer","sdp":"v=0\r\n"}]"#, #"4512["join","r"]"#, #"4312["ok"]"#,
         #"451-/admin,3["file",{"_placeholder":true,"num":0}]"#, #"44/ns,{"message":"Invalid namespace"}"#, "2", "3probe"]
            .map { Array($0.utf8) }
    }, run: { input in
        let message: WebSocketMessage = String(validating: input, as: UTF8.self).map { .text($0) } ?? .binary(input)
        guard let packet = try? EngineIOPacket(message) else { return false }
        if case .message(let text) = packet { _ = try? SocketIOPacket(parsing: text) }
        return true
    })

    /// The built-in room server's messages, as plain JSON and as Socket.IO events.
    public static let room = FuzzTarget(name: "room", seeds: {
        [#"{"event":"message","room":"r1","data":{"type":"offer","sdp":"v=0"}}"#, #"{"event":"joined","room":"r","id":"x"}"#,
         #"{"event":"join","room":"r"}"#, #"{"event":"other_joined","room":"r","id":"y"}"#, #"{"event":"error","code":"x","message":"y"}"#]
            .map { Array($0.utf8) }
    }, run: { input in
        guard let value = try? JSONValue(parsing: input) else { return false }
        let names = RoomEventNames()
        let plain = RoomMessage(plainJSON: value, names: names)
        let event = value["event"]?.stringValue.flatMap { RoomMessage(socketIOEvent: $0, arguments: value["args"]?.arrayValue ?? [], names: names) }
        return plain != nil || event != nil
    })

    /// JSON (RFC 8259) as servers send it, and JSON5 as scenario files are written.
    public static let json = FuzzTarget(name: "json", fixtures: [
        FixtureSelection("Tests/Fixtures", suffix: ".json"), FixtureSelection("Tests/Fixtures", suffix: ".jsonl", byLine: true),
        FixtureSelection("Scenarios", suffix: ".json5"),
    ], seeds: { [] }, run: { input in
        let json = try? JSONValue(parsing: input)
        let json5 = try? JSON5Parser.parse(String(decoding: input, as: UTF8.self))
        return json != nil || json5 != nil
    })
}
