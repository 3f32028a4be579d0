import EventLoop
import Foundation
import RoomServer
import RTCBase
import Runtime
import Signaling
import WebRTCTestKit
import XCTest

/// rtcswarm's built-in room server driven by python-socketio clients (TARGETS.md): the
/// reference Socket.IO client, so the server is proven against code nobody here wrote.
final class BuiltInRoomServerInteropTests: XCTestCase {
    func testPythonSocketIOClientsPlayTheRoomProtocol() throws {
        InteropRecorder.cell(self, target: "python-socketio", version: TargetVersion.pip("python-socketio"),
                             role: "room clients (rtcswarm's built-in room server)", codec: "signaling")
        for otherJoined in ["other_joined", "otherjoin"] {
            try playRoomProtocol(otherJoined: otherJoined)
        }
    }

    private func playRoomProtocol(otherJoined: String) throws {
        let python = try PythonPeers.python()
        let loop = try EventLoop()
        var configuration = RoomServerConfiguration()
        configuration.events = RoomEventNames(otherJoined: otherJoined)
        configuration.maxMessageBytes = 64 * 1024
        let host = try RoomServerStream(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0), configuration: configuration)
        let url = "http://\(host.address)"
        let thread = LoopThread(loop)
        let result = try ExternalTool.run(python, [PythonPeers.script("room_clients.py"), url, otherJoined])
        thread.stop()
        XCTAssertEqual(result.status, 0, result.output)
        let json = try JSONValue(parsing: result.output.split(separator: "\n").last.map(String.init) ?? "")
        let a = try XCTUnwrap(json["ids"]?["a"]?.stringValue)
        let b = try XCTUnwrap(json["ids"]?["b"]?.stringValue)
        let c = try XCTUnwrap(json["ids"]?["c"]?.stringValue)
        let dropped = try XCTUnwrap(json["dropped"]?.stringValue)
        let offer: JSONValue = .object(["type": "offer", "sdp": "v=0\r\n"])
        let answer: JSONValue = .object(["type": "answer", "sdp": "v=0\r\n"])
        let candidate: JSONValue = .object(["type": "candidate", "label": 0, "id": "0",
                                            "candidate": "candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host"])
        XCTAssertEqual(json["a"], [["joined", .string("r1"), .string(a)], [.string(otherJoined), "r1", .string(b)],
                                   ["message", "r1", answer], ["message", "r1", candidate], ["bye", "r1", .string(b)]])
        XCTAssertEqual(json["b"], [["joined", "r1", .string(b)], ["message", "r1", offer], ["leaved", "r1", .string(b)]])
        XCTAssertEqual(json["c"], [["full", "r1", .string(c)],
                                   ["error", .object(["code": "not_member", "message": "only members of r1 may send it messages; join first"])]])
        let d = try XCTUnwrap(json["d"]?.arrayValue)
        XCTAssertEqual(d.count, 4)
        XCTAssertEqual(d[1], [.string(otherJoined), "r2", .string(dropped)])
        XCTAssertEqual(d[2], ["bye", "r2", .string(dropped)], "a member killed without leave gets a bye")
        XCTAssertEqual(json["e_connected"], false, "the oversized sender was disconnected")
        let stats = host.stats
        XCTAssertEqual(stats.joins, 6)
        XCTAssertEqual(stats.fulls, 1)
        XCTAssertEqual(stats.messagesRelayed, 3)
        XCTAssertEqual(stats.byesOnDisconnect, 1)
        XCTAssertEqual(stats.rejects["not_member"], 1)
        XCTAssertEqual(stats.rejects["message_too_large"], 1)
    }
}
