import Foundation
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// `rtcswarm run` against the mock OWT portal (Tests/Interop/owt_portal.py, a strict
/// stand-in for the discontinued portal, media through aiortc): peers log in with tokens
/// from its REST API, publish, and subscribe to the forward and the mixed stream.
final class OWTPortalRunTests: XCTestCase {
    private static let mixed = "160x90"

    private func startPortal() throws -> (ManagedProcess, port: Int, token: String) {
        let portal = try ManagedProcess(try PythonPeers.python(), [PythonPeers.script("owt_portal.py"), "--service-id", "svc",
                                                                   "--service-key", "key", "--mixed", Self.mixed])
        let line = try XCTUnwrap(portal.firstLine(timeout: 30), "the mock portal printed nothing: \(portal.text)")
        let hello = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
        return (portal, try XCTUnwrap(hello["port"] as? Int), try XCTUnwrap(hello["token"] as? String))
    }

    private func run(_ text: String) throws -> (RunReport, ScenarioRunner.Outcome) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("owt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        return ScenarioRunner(loaded: try ScenarioLoader.load(text: text), options: .init(folder: out, version: "test", progress: { _ in })).run()
    }

    func testOnePublisherTwoForwardPlayersAndOneMixedPlayer() throws {
        let cell = InteropRecorder.cell(self, target: "owt (mock portal)", version: TargetVersion.pip("python-socketio"),
                                        role: "portal + aiortc media for publisher, forward and mixed players", codec: "VP8+Opus")
        let (portal, port, _) = try startPortal()
        defer { portal.stop() }
        let (report, outcome) = try run("""
        { name: "owt-mock", duration_s: 8,
          target: { kind: "owt", owt: { portal: "http://127.0.0.1:\(port)", service_id: "svc", service_key: "key", room: "r1", engine_io: 4 } },
          groups: [{ role: "publisher", count: 1, media: { video: { resolution: "320x180", fps: 30, bitrate_kbps: 300 } } },
                   { role: "player", count: 2, start_s: 2, media: { video: { resolution: "320x180" } } },
                   { role: "player", count: 1, start_s: 2, stream: { from: "mixed" }, media: { video: { resolution: "\(Self.mixed)" } } }] }
        """)
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { "\($0.id): \($0.failureReason ?? "ok")" }) portal: \(portal.text.suffix(3000))")
        XCTAssertEqual(peers.count, 4)
        for peer in peers {
            XCTAssertEqual(peer.outcome, .completed, "\(peer.id): \(peer.failureReason ?? "")")
            XCTAssertNotNil(peer.phases["setup_ms"], "\(peer.id): \(peer.phases)")
        }
        let players = peers.filter { $0.role == "player" }.sorted { $0.group < $1.group }
        XCTAssertEqual(players.count, 3)
        for (index, player) in players.enumerated() {
            let video = try XCTUnwrap(player.streams.first { $0.kind == "video" }, player.id)
            XCTAssertGreaterThan(video.framesReceived, 60, "\(player.id): about 5 s at up to 30 fps")
            XCTAssertEqual(video.resolutions.keys.sorted(), [index < 2 ? "320x180" : Self.mixed], player.id)
        }
    }

    func testPortalRefusalsAreQuoted() throws {
        let (portal, port, _) = try startPortal()
        defer { portal.stop() }
        // A token the portal never issued, and a player's viewer token used to publish.
        let forged = Data(#"{"tokenId":"nope","host":"127.0.0.1:\#(port)","secure":false,"signature":"eA=="}"#.utf8).base64EncodedString()
        let (report, _) = try run("""
        { name: "owt-refusals", duration_s: 3,
          target: { kind: "owt", owt: { portal: "http://127.0.0.1:\(port)", token: "\(forged)", engine_io: 4 } },
          groups: [{ role: "publisher", count: 1 }] }
        """)
        let peer = try XCTUnwrap(report.cells.first?.peers.first)
        XCTAssertEqual(peer.outcome, .failed)
        XCTAssertEqual(peer.failureReason, "OWT portal: login refused: Authentication failed: invalid token")
    }
}
