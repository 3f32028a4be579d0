import Foundation
import Metrics
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// `rtcswarm run Scenarios/turn-relay.json5` through coturn (Debian) on 127.0.0.1: calls
/// that may only use relayed candidates, trickled through the room as the seed protocol's
/// candidate messages, connect with a relay pair and carry media.
final class TurnRelayRunTests: XCTestCase {
    func testRelayOnlyCallsConnectThroughCoturn() throws {
        let cell = InteropRecorder.cell(self, target: "coturn", version: TargetVersion.coturn,
                                        role: "relay for `rtcswarm run` calls, relay-only (turn-relay.json5)", codec: "VP8+Opus")
        let turn = try Coturn()
        defer { turn.stop() }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("turn-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let file = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios/turn-relay.json5").path
        let loaded = try ScenarioLoader.load(file: file, environment: ["TURN_URL": turn.address, "CALLS": "2", "DURATION_S": "5"])
        let (report, outcome) = ScenarioRunner(loaded: loaded, options: .init(folder: out, version: "test", progress: { _ in })).run()
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { $0.failureReason ?? "ok" })")
        XCTAssertEqual(peers.map(\.candidatePair), Array(repeating: "relay", count: 4))
        for peer in peers {
            XCTAssertGreaterThan(try XCTUnwrap(peer.streams.first { $0.kind == "video" }).framesReceived, 60)
        }
    }
}
