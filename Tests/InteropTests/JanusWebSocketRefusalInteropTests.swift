import EventLoop
import Foundation
import Media
import Net
import PeerCore
import RTCBase
import Runtime
import Signaling
import WebRTCTestKit
import XCTest

/// What a `ws://` URL that is not Janus's WebSocket transport gets, in the server's words.
final class JanusWebSocketRefusalInteropTests: XCTestCase {
    func testAWebSocketToJanussHTTPPortFailsNamingTheRefusal() throws {
        InteropRecorder.cell(self, target: "Janus", role: "ws:// at the HTTP port (the refused upgrade is quoted)", codec: "signaling")
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let janus = try JanusServer(executable: executable, shim: try LoopbackShim.library())
        defer { janus.stop() }
        let loop = try EventLoop()
        guard try JanusServer.waitUntilAnswering(janus, loop: loop) else { return XCTFail("Janus did not start: \(janus.log.suffix(2000))") }
        var events: [CallSetupEvent] = []
        let server = Endpoint(scheme: .ws, host: "127.0.0.1", port: janus.port, path: "/janus")
        let setup = StreamHost(loop: loop, machine: SingleConnection(JanusWebSocketCallSetup(server: server, plugin: .echoTest(videoCodec: nil),
                                                                                  offer: "v=0\r\n", seed: 61)))
        setup.onEvent = { events.append($0) }
        setup.start()
        XCTAssertTrue(loop.run(until: { !events.isEmpty }, timeout: .seconds(12)))
        print("ws:// to Janus's HTTP port: \(events)")
        guard case .failed(let error)? = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(error.message, "Janus refused the WebSocket upgrade at ws://127.0.0.1:\(janus.port)/janus: server refused the upgrade (HTTP 404 Not Found)")
        XCTAssertEqual(error.code, .refused)
        XCTAssertTrue(setup.machine.machine.isClosed)
        XCTAssertNil(setup.machine.machine.sessionID)
    }
}
