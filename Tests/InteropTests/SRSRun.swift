import Foundation
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// A shipped `Scenarios/srs-*.json5` run against an SRS by `rtcswarm run`'s own runner,
/// with stream names no other test uses (SRS keeps a stream busy for a while after its
/// publisher leaves, and tests share one SRS).
struct SRSRun {
    var report: RunReport
    var outcome: ScenarioRunner.Outcome

    /// - Parameters:
    ///   - streamGroups: indices of the groups whose `stream.name` is made fresh; all groups
    ///     named the same in the file keep one (fresh) name between them.
    static func run(_ scenario: String, url: String, environment: [String: String] = [:], overrides: [String] = [],
                    streamGroups: [Int] = [0, 1], during: (@Sendable (Date) -> Void)? = nil) throws -> SRSRun {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("srs-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let file = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios/\(scenario)").path
        let stream = "rtcswarm-\(UUID().uuidString.prefix(8))"
        let names = streamGroups.map { "groups[\($0)].stream.name=\(stream)" }
        let loaded = try ScenarioLoader.load(file: file, environment: environment.merging(["SRS_URL": url]) { $1 },
                                             overrides: names + overrides)
        let started = Date()
        if let during { DispatchQueue.global().async { during(started) } }
        let (report, outcome) = ScenarioRunner(loaded: loaded, options: .init(folder: out, version: "test", progress: { _ in })).run()
        return SRSRun(report: report, outcome: outcome)
    }

    var peers: [PeerRecord] { report.cells.flatMap(\.peers) }
    var players: [PeerRecord] { peers.filter { $0.role == "player" } }

    /// Every peer's id and failure reason, for assertion messages.
    var failures: String {
        peers.map { "\($0.id): \($0.outcome) \($0.failedPhase ?? "") \($0.failureReason ?? "")" }.joined(separator: "; ")
            + (report.invalidReason.map { " invalid: \($0)" } ?? "")
    }

    /// Each player's video stream, failing the test for a player that received none.
    func playerVideo(file: StaticString = #filePath, line: UInt = #line) throws -> [StreamRecord] {
        try players.map { player in
            try XCTUnwrap(player.streams.first { $0.kind == "video" }, "\(player.id) received no video", file: file, line: line)
        }
    }
}
