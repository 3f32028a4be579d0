import RTCBase
import Signaling
import WebRTCTestKit
import XCTest

final class RoomMessageTests: XCTestCase {
    private let seed = RoomEventNames()
    private let publicServer = RoomEventNames(otherJoined: "otherjoin")

    func testSocketIOArgumentsFollowTheSeedOrder() {
        XCTAssertEqual(RoomMessage.joined(room: "r", id: "abc").socketIOArguments, ["r", "abc"])
        XCTAssertEqual(RoomMessage.message(room: "r", data: .object(["type": "bye"])).socketIOArguments,
                       ["r", .object(["type": "bye"])])
        XCTAssertEqual(RoomMessage.otherJoined(room: "r", id: "x").eventName(seed), "other_joined")
        XCTAssertEqual(RoomMessage.otherJoined(room: "r", id: "x").eventName(publicServer), "otherjoin")
    }

    func testEveryMessageRoundTripsThroughBothWireForms() throws {
        let messages: [RoomMessage] = [
            .join(room: "r1"), .leave(room: "r1"),
            .message(room: "r1", data: .object(["type": "candidate", "label": 0, "id": "0", "candidate": "candidate:1 1 udp 1 127.0.0.1 9 typ host"])),
            .joined(room: "r1", id: "a"), .otherJoined(room: "r1", id: "b"), .full(room: "r1", id: "c"),
            .leaved(room: "r1", id: "a"), .bye(room: "r1", id: "b"), .error(code: "not_member", message: "join first"),
        ]
        for names in [seed, publicServer] {
            for message in messages {
                XCTAssertEqual(RoomMessage(socketIOEvent: message.eventName(names), arguments: message.socketIOArguments, names: names),
                               message, "\(message) over Socket.IO")
                let text = message.plainJSON(names).serialized
                XCTAssertEqual(RoomMessage(plainJSON: try JSONValue(parsing: text), names: names), message, "\(message) as \(text)")
            }
        }
    }

    func testPlainJSONFormIsTheDocumentedOne() {
        XCTAssertEqual(RoomMessage.joined(room: "r1", id: "m").plainJSON(seed).serialized, #"{"event":"joined","room":"r1","id":"m"}"#)
        XCTAssertEqual(RoomMessage.message(room: "r1", data: .object(["type": "bye"])).plainJSON(seed).serialized,
                       #"{"event":"message","room":"r1","data":{"type":"bye"}}"#)
    }

    func testMalformedEventsAreNotProtocolMessages() throws {
        XCTAssertNil(RoomMessage(socketIOEvent: "join", arguments: [], names: seed), "join without a room")
        XCTAssertNil(RoomMessage(socketIOEvent: "joined", arguments: ["r"], names: seed), "joined without an id")
        XCTAssertNil(RoomMessage(socketIOEvent: "message", arguments: ["r"], names: seed), "message without data")
        XCTAssertNil(RoomMessage(socketIOEvent: "otherjoin", arguments: ["r", "x"], names: seed), "the other server's event name")
        XCTAssertNil(RoomMessage(socketIOEvent: "join", arguments: [5], names: seed), "a room that is not a string")
        XCTAssertNil(RoomMessage(plainJSON: try JSONValue(parsing: #"{"room":"r"}"#), names: seed), "no event")
        XCTAssertNil(RoomMessage(plainJSON: try JSONValue(parsing: "[1,2]"), names: seed))
    }

    func testHundredThousandMutatedFramesNeverCrashTheReader() {
        let seeds = [#"{"event":"message","room":"r1","data":{"type":"offer","sdp":"v=0"}}"#, #"{"event":"joined","room":"r","id":"x"}"#,
                     #"{"event":"error","code":"x","message":"y"}"#].map { Array($0.utf8) }
        var fuzzer = Fuzzer(seeds: seeds, seed: 21, maxLength: 200)
        var understood = 0
        fuzzer.run(iterations: 100_000) { input in
            if let value = try? JSONValue(parsing: input), RoomMessage(plainJSON: value, names: seed) != nil { understood += 1 }
        }
        XCTAssertGreaterThan(understood, 100, "some mutations stay valid messages, so the reader really ran")
    }
}
