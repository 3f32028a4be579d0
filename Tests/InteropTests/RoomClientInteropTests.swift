import EventLoop
import Foundation
import Net
import RTCBase
import Runtime
import Signaling
import WebRTCTestKit
import XCTest

/// rtcswarm's room client against a room server written with python-socketio that
/// follows the seed protocol (TARGETS.md): the reference Socket.IO server.
final class RoomClientInteropTests: XCTestCase {
    func testRoomClientJoinsRelaysAndLeavesOnAPythonSocketIOServer() throws {
        InteropRecorder.cell(self, target: "python-socketio", version: TargetVersion.pip("python-socketio"),
                             role: "room server (rtcswarm's room client)", codec: "signaling")
        for otherJoined in ["other_joined", "otherjoin"] {
            try playAgainstPythonServer(otherJoined: otherJoined)
        }
    }

    private func playAgainstPythonServer(otherJoined: String) throws {
        let python = try PythonPeers.python()
        let server = try ManagedProcess(python, [PythonPeers.script("room_server.py"), otherJoined])
        defer { server.stop() }
        let port = try XCTUnwrap(server.firstLine().flatMap { UInt16($0) }, "the python server did not print its port: \(server.text)")
        let endpoint = Endpoint(scheme: .http, host: "127.0.0.1", port: port)
        let names = RoomEventNames(otherJoined: otherJoined)
        let loop = try EventLoop()
        var seen: [[RoomClient.Event]] = [[], [], []]
        let clients = (0..<3).map { index in
            RoomClientStream(loop: loop, client: RoomClient(endpoint: endpoint, transport: .socketIO, names: names, seed: UInt64(index + 1)),
                             tls: nil) { seen[index].append($0) }
        }
        func messages(_ index: Int) -> [RoomMessage] {
            seen[index].compactMap { if case .message(let message) = $0 { message } else { nil } }
        }
        func waitFor(_ what: String, _ condition: () -> Bool) {
            XCTAssertTrue(loop.run(until: condition, timeout: .seconds(10)), "timed out waiting for \(what): \(seen)")
        }
        waitFor("three connections") { clients.allSatisfy(\.client.isReady) }
        let ids = clients.map { $0.client.memberID ?? "" }

        clients[0].send(.join(room: "r1"))
        waitFor("first joined") { messages(0).count == 1 }
        clients[1].send(.join(room: "r1"))
        waitFor("second joined") { messages(1).count == 1 && messages(0).count == 2 }
        clients[2].send(.join(room: "r1"))
        waitFor("third full") { messages(2).count == 1 }
        XCTAssertEqual(messages(0), [.joined(room: "r1", id: ids[0]), .otherJoined(room: "r1", id: ids[1])])
        XCTAssertEqual(messages(1), [.joined(room: "r1", id: ids[1])])
        XCTAssertEqual(messages(2), [.full(room: "r1", id: ids[2])])
        XCTAssertEqual(clients[0].client.rooms["r1"], .joinedConnected)

        let offer: JSONValue = .object(["type": "offer", "sdp": "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n"])
        let candidate: JSONValue = .object(["type": "candidate", "label": 0, "id": "0", "candidate": "candidate:1 1 udp 1 127.0.0.1 9 typ host"])
        clients[0].send(.message(room: "r1", data: offer))
        clients[1].send(.message(room: "r1", data: .object(["type": "answer", "sdp": "v=0\r\n"])))
        clients[1].send(.message(room: "r1", data: candidate))
        waitFor("relay") { messages(1).count == 2 && messages(0).count == 4 }
        XCTAssertEqual(messages(1).last, .message(room: "r1", data: offer))
        XCTAssertEqual(messages(0).last, .message(room: "r1", data: candidate))

        clients[1].send(.leave(room: "r1"))
        waitFor("leave") { messages(1).count == 3 && messages(0).count == 5 }
        XCTAssertEqual(messages(1).last, .leaved(room: "r1", id: ids[1]))
        XCTAssertEqual(messages(0).last, .bye(room: "r1", id: ids[1]))
        XCTAssertEqual(clients[0].client.rooms["r1"], .joinedUnbound)
        XCTAssertEqual(clients[1].client.rooms["r1"], .leaved)
        clients.forEach { $0.close() }
        loop.run(until: { false }, timeout: .milliseconds(50))
    }
}
