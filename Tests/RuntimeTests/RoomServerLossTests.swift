import EventLoop
import Foundation
import Glibc
import Net
import Report
import RTCBase
import Runtime
import Scenario
import Signaling
import WebRTCTestKit
import XCTest

/// A room server that goes away: before a peer reaches it, and under calls in progress.
final class RoomServerLossTests: XCTestCase {
    /// Nothing listens: the one reason given is the refused connect, not the handshake's
    /// "server closed the connection without an answer" that used to come first.
    func testARoomServerThatIsNotThereIsConnectionRefused() throws {
        let loop = try EventLoop()
        let free = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        let address = free.localAddress
        free.close()
        var reasons: [String] = []
        let client = RoomClientStream(loop: loop, client: RoomClient(endpoint: Endpoint(scheme: .http, host: "127.0.0.1", port: address.port),
                                                                     transport: .socketIO, names: RoomEventNames(), seed: 1),
                                      tls: nil) { event in if case .closed(let reason) = event { reasons.append(reason) } }
        XCTAssertTrue(loop.run(until: { !reasons.isEmpty }, timeout: .seconds(5)))
        loop.run(until: { false }, timeout: .milliseconds(50))
        XCTAssertEqual(reasons.count, 1, "\(reasons)")
        XCTAssertTrue(reasons.first?.contains("Connection refused") ?? false, "\(reasons)")
        XCTAssertFalse(client.client.isReady)
    }

    /// `rtcswarm serve` killed (SIGKILL) once every peer is connected: the calls go on to
    /// their planned end, and each peer's record, and the report's warnings, say when the
    /// signaling connection was lost. Before, the run passed as if nothing happened.
    func testARoomServerKilledMidCallIsRecordedOnEachPeerAndWarned() throws {
        let server = try ServeProcess()
        let port = server.port
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("server-killed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let pid = server.pid
        var killedAtLine: String?
        let runner = ScenarioRunner(loaded: try ScenarioLoader.load(text: """
        { name: "server-killed", duration_s: 8, target: { kind: "room", url: "http://127.0.0.1:\(port)" },
          groups: [{ role: "pair", count: 2, arrival: { rate_per_s: 20 },
                     media: { video: { resolution: "160x90", fps: 15, bitrate_kbps: 100 } } }] }
        """), options: .init(folder: out, version: "test", progress: { line in
            guard killedAtLine == nil, line.contains(" 4 connected") else { return }
            kill(pid, SIGKILL)
            killedAtLine = line
        }))
        let (report, _) = runner.run()
        let line = try XCTUnwrap(killedAtLine, "the four peers never connected")
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(peers.count, 4)
        for peer in peers {
            XCTAssertEqual(peer.outcome, .completed, "media needs no room server once set up: \(peer.failureReason ?? "")")
            let lostAt = try XCTUnwrap(peer.signalingLostAtMs, "\(peer.id) has no record of the loss (killed at: \(line))")
            XCTAssertGreaterThan(lostAt, peer.phases["setup_ms"].map { peer.startedAtMs + $0 } ?? 0)
            XCTAssertLessThan(lostAt, peer.endedAtMs)
            XCTAssertEqual(peer.signalingLostReason, "WebSocket closed by the server with 1006 connection ended without a Close frame")
        }
        let warning = try XCTUnwrap(report.warnings?.first { $0.contains("lost their signaling connection") }, "\(report.warnings ?? [])")
        XCTAssertTrue(warning.hasPrefix("default: 4 of 4 peer(s) lost their signaling connection mid-call, the first at "), warning)
    }
}
