import Net
import RoomServer
import RTCBase
import Signaling
import XCTest

final class RoomServerProtocolTests: XCTestCase {
    private let offer = JSONValue.object(["type": "offer", "sdp": "v=0\r\n"])

    func testTwoJoinTheThirdIsFullMessagesRelayLeaveSaysByeAndLeaved() throws {
        var harness = RoomHarness()
        let first = harness.connect(.socketIO)
        let second = harness.connect(.socketIO)
        let third = harness.connect(.socketIO)
        let firstID = try XCTUnwrap(harness.clients[first]?.memberID)
        let secondID = try XCTUnwrap(harness.clients[second]?.memberID)
        XCTAssertNotEqual(firstID, secondID)

        harness.send(.join(room: "r1"), from: first)
        harness.send(.join(room: "r1"), from: second)
        harness.send(.join(room: "r1"), from: third)
        XCTAssertEqual(harness.messages(first), [.joined(room: "r1", id: firstID), .otherJoined(room: "r1", id: secondID)])
        XCTAssertEqual(harness.messages(second), [.joined(room: "r1", id: secondID)])
        XCTAssertEqual(harness.messages(third), [.full(room: "r1", id: harness.clients[third]?.memberID ?? "")])
        XCTAssertEqual(harness.clients[first]?.rooms["r1"], .joinedConnected)
        XCTAssertEqual(harness.clients[third]?.rooms["r1"], .leaved)

        let candidate = JSONValue.object(["type": "candidate", "label": 0, "id": "0", "candidate": "candidate:1 1 udp 1 127.0.0.1 5000 typ host"])
        harness.send(.message(room: "r1", data: offer), from: first)
        harness.send(.message(room: "r1", data: .object(["type": "answer", "sdp": "v=0\r\n"])), from: second)
        harness.send(.message(room: "r1", data: candidate), from: second)
        XCTAssertEqual(harness.messages(second).last, .message(room: "r1", data: offer))
        XCTAssertEqual(Array(harness.messages(first).suffix(2)),
                       [.message(room: "r1", data: .object(["type": "answer", "sdp": "v=0\r\n"])), .message(room: "r1", data: candidate)])
        XCTAssertEqual(harness.clients[second]?.rooms["r1"], .joinedConnected)

        harness.send(.leave(room: "r1"), from: second)
        XCTAssertEqual(harness.messages(second).last, .leaved(room: "r1", id: secondID))
        XCTAssertEqual(harness.messages(first).last, .bye(room: "r1", id: secondID))
        XCTAssertEqual(harness.clients[first]?.rooms["r1"], .joinedUnbound)

        let stats = harness.server.stats
        XCTAssertEqual(stats.joins, 2)
        XCTAssertEqual(stats.fulls, 1)
        XCTAssertEqual(stats.leaves, 1)
        XCTAssertEqual(stats.messagesRelayed, 3)
        XCTAssertEqual(stats.connections, 3)
    }

    func testAMemberDroppingWithoutLeaveGivesByeToTheOthers() throws {
        var harness = RoomHarness()
        let stays = harness.connect(.socketIO)
        let drops = harness.connect(.webSocket)
        harness.send(.join(room: "r"), from: stays)
        harness.send(.join(room: "r"), from: drops)
        let dropped = try XCTUnwrap(harness.clients[drops]?.memberID, "plain WebSocket members learn their id from joined")
        harness.drop(drops)
        XCTAssertEqual(harness.messages(stays).last, .bye(room: "r", id: dropped))
        XCTAssertEqual(harness.server.stats.byesOnDisconnect, 1)
        // The room has a free place again.
        let next = harness.connect(.socketIO)
        harness.send(.join(room: "r"), from: next)
        XCTAssertEqual(harness.messages(next).first, .joined(room: "r", id: harness.clients[next]?.memberID ?? ""))
    }

    func testNonMembersCannotSendMessagesOrLeave() {
        var harness = RoomHarness()
        let member = harness.connect(.socketIO)
        let outsider = harness.connect(.webSocket)
        harness.send(.join(room: "r"), from: member)
        harness.send(.message(room: "r", data: offer), from: outsider)
        harness.send(.leave(room: "r"), from: outsider)
        XCTAssertEqual(harness.messages(member), [.joined(room: "r", id: harness.clients[member]?.memberID ?? "")], "nothing relayed")
        XCTAssertEqual(harness.messages(outsider), [
            .error(code: "not_member", message: "only members of r may send it messages; join first"),
            .error(code: "not_member", message: "cannot leave r: not a member"),
        ])
        XCTAssertEqual(harness.server.stats.rejects["not_member"], 2)
    }

    func testPlainWebSocketAndSocketIOMembersShareARoom() throws {
        var harness = RoomHarness()
        let browser = harness.connect(.webSocket)
        let peer = harness.connect(.socketIO)
        harness.send(.join(room: "mixed"), from: browser)
        harness.send(.join(room: "mixed"), from: peer)
        harness.send(.message(room: "mixed", data: offer), from: peer)
        XCTAssertEqual(harness.messages(browser).last, .message(room: "mixed", data: offer))
        XCTAssertEqual(harness.messages(browser).dropLast().last, .otherJoined(room: "mixed", id: try XCTUnwrap(harness.clients[peer]?.memberID)))
    }

    func testConfiguredCapacityAndEventName() {
        var configuration = RoomServerConfiguration()
        configuration.capacity = 3
        configuration.events = RoomEventNames(otherJoined: "otherjoin")
        var harness = RoomHarness(configuration: configuration)
        let names = RoomEventNames(otherJoined: "otherjoin")
        let ids = (0..<4).map { _ in harness.connect(.socketIO, names: names) }
        for id in ids { harness.send(.join(room: "big"), from: id) }
        XCTAssertEqual(harness.messages(ids[0]).count, 3, "joined, then otherjoin twice")
        XCTAssertEqual(harness.messages(ids[0]).filter { if case .otherJoined = $0 { true } else { false } }.count, 2)
        XCTAssertEqual(harness.messages(ids[3]), [.full(room: "big", id: harness.clients[ids[3]]?.memberID ?? "")])
        // A client expecting the seed's name does not understand otherjoin.
        let seedClient = harness.connect(.socketIO)
        harness.send(.join(room: "other"), from: seedClient)
        let modern = harness.connect(.socketIO, names: names)
        harness.send(.join(room: "other"), from: modern)
        XCTAssertEqual(harness.messages(seedClient).count, 1, "the otherjoin event is not other_joined")
    }
}
