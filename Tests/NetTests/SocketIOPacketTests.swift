import Net
import RTCBase
import WebRTCTestKit
import XCTest

final class SocketIOPacketTests: XCTestCase {
    func testEngineIOPacketsEncodeAsOnTheWire() throws {
        let open = EngineIOHandshake(sid: "lv_VI97HAXpY6yYWAAAC")
        XCTAssertEqual(EngineIOPacket.open(open).encoded,
                       .text(#"0{"sid":"lv_VI97HAXpY6yYWAAAC","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#))
        XCTAssertEqual(try EngineIOPacket(EngineIOPacket.open(open).encoded), .open(open))
        XCTAssertEqual(EngineIOPacket.ping("").encoded, .text("2"))
        XCTAssertEqual(try EngineIOPacket(.text("3probe")), .pong("probe"))
        XCTAssertEqual(try EngineIOPacket(.text("42[\"hi\"]")), .message("2[\"hi\"]"))
        XCTAssertEqual(try EngineIOPacket(.binary([1, 2])), .binary([1, 2]))
        XCTAssertThrowsError(try EngineIOPacket(.text("")))
        XCTAssertThrowsError(try EngineIOPacket(.text("9")))
        XCTAssertThrowsError(try EngineIOPacket(.text("0{\"sid\":\"x\"}")), "open without ping values")
    }

    func testSocketIOPacketsEncodeAsProtocolsMdShows() {
        XCTAssertEqual(SocketIOPacket(kind: .connect).encoded, "0")
        XCTAssertEqual(SocketIOPacket(kind: .connect, data: .object(["token": "t"])).encoded, #"0{"token":"t"}"#)
        XCTAssertEqual(SocketIOPacket(kind: .event, data: ["join", "room1"]).encoded, #"2["join","room1"]"#)
        XCTAssertEqual(SocketIOPacket(kind: .event, id: 12, data: ["join", "room1"]).encoded, #"212["join","room1"]"#)
        XCTAssertEqual(SocketIOPacket(kind: .ack, id: 12, data: ["ok"]).encoded, #"312["ok"]"#)
        XCTAssertEqual(SocketIOPacket(kind: .connectError, namespace: "/ns", data: .object(["message": "Invalid namespace"])).encoded,
                       #"4/ns,{"message":"Invalid namespace"}"#)
        XCTAssertEqual(SocketIOPacket(kind: .binaryEvent, namespace: "/admin", id: 3,
                                      data: ["file", SocketIOPacket.placeholder(0)], attachments: 1).encoded,
                       #"51-/admin,3["file",{"_placeholder":true,"num":0}]"#)
        XCTAssertEqual(SocketIOPacket(kind: .disconnect, namespace: "/admin").encoded, "1/admin,")
    }

    func testSocketIOPacketsParseBack() throws {
        let binary = try SocketIOPacket(parsing: #"52-/admin,7["up",{"_placeholder":true,"num":1},{"_placeholder":true,"num":0}]"#)
        XCTAssertEqual(binary.kind, .binaryEvent)
        XCTAssertEqual(binary.attachments, 2)
        XCTAssertEqual(binary.namespace, "/admin")
        XCTAssertEqual(binary.id, 7)
        XCTAssertEqual(binary.data?[0], "up")
        let connect = try SocketIOPacket(parsing: "0/chat,")
        XCTAssertEqual(connect.namespace, "/chat")
        XCTAssertNil(connect.data)
        XCTAssertEqual(try SocketIOPacket(parsing: #"0{"sid":"abc"}"#).data?["sid"], "abc")
    }

    func testSocketIOPacketsWithTheWrongShapeAreRejected() {
        for bad in ["", "7", "2", "2{}", "2[1]", "3[1]", "1[]", "0[1]", "4", "5-[\"a\"]", "5x-[\"a\"]",
                    #"51-["a",{"_placeholder":true,"num":1}]"#, "99999-[\"a\"]", "2[\"a\"", "21234567890123456[\"a\"]"] {
            XCTAssertThrowsError(try SocketIOPacket(parsing: bad), bad)
        }
    }

    func testPacketParsersSurviveFuzzing() {
        let seeds = [#"0{"sid":"lv_VI97HAXpY6yYWAAAC","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#,
                     #"42["message",{"type":"offer","sdp":"v=0\r\n"}]"#, #"4512["join","r"]"#, #"4312["ok"]"#,
                     #"451-/admin,3["file",{"_placeholder":true,"num":0}]"#, #"44/ns,{"message":"Invalid namespace"}"#, "2", "3probe"]
            .map { Array($0.utf8) }
        var fuzzer = Fuzzer(seeds: seeds, seed: 5, maxLength: 200)
        var valid = 0
        fuzzer.run(iterations: 100_000) { input in
            let message: WebSocketMessage = String(validating: input, as: UTF8.self).map { .text($0) } ?? .binary(input)
            guard let packet = try? EngineIOPacket(message) else { return }
            if case .message(let text) = packet, let parsed = try? SocketIOPacket(parsing: text) {
                valid += 1
                XCTAssertEqual(try? SocketIOPacket(parsing: parsed.encoded), parsed)
            }
        }
        XCTAssertGreaterThan(valid, 500)
    }
}
