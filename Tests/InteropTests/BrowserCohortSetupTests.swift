import Foundation
import Report
import WebRTCTestKit
import XCTest

/// rtcswarm's setup beside Chromium's on the same SRS at the same time (METRICS.md: within
/// 10 % or 3 ms). `Scenarios/srs-browser-cohort.json5` runs rtcswarm players and Chromium
/// players (`groups[].client: "chromium"`) of one stream, interleaved, inside a network
/// namespace that has only `lo`, with SRS started in it and tshark capturing (`CohortRun`).
///
/// Chromium's phases are read off the capture (`WireSetupPhases`): what the network, SRS
/// and its ICE and DTLS pacing and timers took, without the time it spends in its own
/// process (applying the answer, 2-7 ms here; its page's fetch), which is the browser's CPU
/// and not what rtcswarm must reproduce. Its page's own timings are printed beside.
/// rtcswarm runs from its release build, as users run it.
final class BrowserCohortSetupTests: XCTestCase {
    /// The players per client.
    private static let players = 16

    /// Without loss rtcswarm's pacing adds nothing to Chromium's, medians on the wire: each
    /// client checks at once, uses the first answered pair and starts DTLS on it. Compared:
    /// ICE, DTLS, and the two together, which is setup less what is neither client's pacing:
    /// SRS's time to answer the offer (Chromium's offer, with every codec, took SRS up to
    /// 13 ms longer to answer on a busy machine) and each client's own CPU applying the
    /// answer. rtcswarm may be quicker than Chromium, not slower by more than 10 % or 3 ms:
    /// the DTLS phase holds each client's own signing and key exchange, and Chromium's
    /// process, starved on two cores beside its 16 peers' decoders and a build, took a median
    /// 11-18 ms where rtcswarm's took 6-9. rtcswarm's reported figures are held to its
    /// packets player by player.
    func testSetupPhasesAgreeWithChromiumsOnTheSameSRS() throws {
        let (natives, wire, lagMaxMs) = try run(lossPerMille: 0, "WHEP players beside Chromium's: setup phases as Chromium's")
        let ours = wire.players.filter { !$0.chromium }, chromium = wire.players.filter(\.chromium)
        let compared: [(String, KeyPath<WireSetupPhases.Player, Double?>)] = Self.phases.filter { $0.0 != "setup_ms" } + [("ice_ms + dtls_ms", \.connectMs)]
        for (name, path) in compared {
            let mine = Self.median(ours.map { $0[keyPath: path] }), theirs = Self.median(chromium.map { $0[keyPath: path] })
            guard let mine, let theirs else {
                XCTFail("\(name): no median on the wire (rtcswarm \(Self.text(mine)), Chromium \(Self.text(theirs)))")
                continue
            }
            XCTAssertLessThanOrEqual(mine - theirs, Self.allowed(theirs),
                                     "\(name): rtcswarm's median \(Self.text(mine)) ms against Chromium's \(Self.text(theirs)) ms on the same capture")
        }
        assertReportedAsOnTheWire(natives, ours, lagMaxMs: lagMaxMs)
    }

    /// With 5 % of the setup's datagrams lost each way, which setups a loss hits is chance: 16 medians of each
    /// client can differ by a whole retransmission either way (seen: 2 of 16 hit on one
    /// side, 5 on the other). What must agree is what a loss costs, each client's timers: its
    /// first DTLS flight repeated, and its next check after an unanswered one, at their
    /// shortest. Chromium's fire late when its process is starved (its 50 ms timer at
    /// 50-71 ms here, and once 164 ms), so rtcswarm's may be shorter than Chromium's shortest
    /// of three or more, down to 60 % of it, and no more than 10 % or 3 ms longer. And rtcswarm's reported figures must be
    /// what its packets did, player by player.
    func testUnderFivePercentLossTheTimersAreChromiumsAndTheFiguresTheWires() throws {
        let (natives, wire, lagMaxMs) = try run(lossPerMille: 50, "WHEP players beside Chromium's at 5 % STUN/DTLS loss: timers as Chromium's")
        let ours = wire.players.filter { !$0.chromium }, chromium = wire.players.filter(\.chromium)
        var compared = 0
        for (name, path) in [("first DTLS retransmission", \WireSetupPhases.Player.dtlsRepeatMs), ("next check after an unanswered one", \.iceRepeatMs)] {
            let theirs = chromium.compactMap { $0[keyPath: path] }
            let mine = ours.compactMap { $0[keyPath: path] }.min(), shortest = theirs.min()
            print("\(name): rtcswarm \(Self.list(ours.map { $0[keyPath: path] })); Chromium \(Self.list(chromium.map { $0[keyPath: path] })) ms")
            guard let mine, let shortest else { continue }
            compared += 1
            XCTAssertLessThanOrEqual(mine, shortest + Self.allowed(shortest), "\(name): rtcswarm after \(Self.text(mine)) ms, Chromium after \(Self.text(shortest)) ms")
            // A lone repeat of Chromium's may be a starved one (164 ms seen): bound below by
            // its shortest of three or more.
            if theirs.count >= 3 {
                XCTAssertGreaterThanOrEqual(mine, shortest * 0.6, "\(name): rtcswarm after \(Self.text(mine)) ms, Chromium after \(Self.text(shortest)) ms")
            }
        }
        XCTAssertGreaterThan(compared, 0, "loss hit no setup of both clients in this run: no timer to compare")
        assertReportedAsOnTheWire(natives, ours, lagMaxMs: lagMaxMs)
    }

    /// rtcswarm's reported phases against its own packets, player by player in start order
    /// (its ICE phase starts when it applied the answer, so the capture's from the answer):
    /// within 10 % or 5 ms, plus the most its workers' loops ran late in the run (the
    /// report's worker lag max), since a phase starts and ends when the loop handles a
    /// packet; while Chromium sets up its peers on the same two cores that was 3-35 ms.
    private func assertReportedAsOnTheWire(_ natives: [PeerRecord], _ ours: [WireSetupPhases.Player], lagMaxMs: Double) {
        let started = natives.sorted { $0.startedAtMs < $1.startedAtMs }
        guard started.count == ours.count else { return XCTFail("\(started.count) records, \(ours.count) players on the capture") }
        for (record, packets) in zip(started, ours) {
            let onTheWire: [(String, Double?)] = [("ice_ms", packets.iceMs.map { $0 + packets.applyingMs }), ("dtls_ms", packets.dtlsMs)]
            for (name, measured) in onTheWire {
                guard let reported = record.phases[name], let measured else {
                    XCTFail("\(record.id): \(name) reported \(Self.text(record.phases[name])), on the wire \(Self.text(measured))")
                    continue
                }
                XCTAssertEqual(reported, measured, accuracy: max(5, measured * 0.1) + lagMaxMs,
                               "\(record.id) \(name): reported against its packets on the capture (worker lag max \(Self.text(lagMaxMs)) ms)")
            }
        }
    }

    private static var phases: [(String, KeyPath<WireSetupPhases.Player, Double?>)] { [("ice_ms", \.iceMs), ("dtls_ms", \.dtlsMs), ("setup_ms", \.setupMs)] }

    /// Runs the cohort, checks every peer is in the report and set up, and prints the medians;
    /// `lagMaxMs` is the most any worker's loop ran late.
    private func run(lossPerMille: Int, _ role: String) throws -> (natives: [PeerRecord], wire: WireSetupPhases, lagMaxMs: Double) {
        let cell = InteropRecorder.cell(self, target: "SRS", role: role, codec: "H.264+Opus")
        let run = try CohortRun(lossPerMille: lossPerMille, players: Self.players, variables: ["DURATION_S": "10", "RATE": "8"])
        defer { run.remove() }
        let report = try run.start()
        let peers = report.cells.flatMap(\.peers), lagMaxMs = report.workers.map(\.lagMaxMs).max() ?? 0
        cell.measured(peers: peers.filter { $0.client == nil })
        for peer in peers where peer.outcome != .completed {
            XCTFail("\(peer.id) (\(peer.client ?? "rtcswarm")) \(peer.outcome) in \(peer.failedPhase ?? "?"): \(peer.failureReason ?? "")")
        }
        let natives = peers.filter { $0.client == nil && $0.role == "player" }, browsers = peers.filter { $0.client == "chromium" }
        XCTAssertEqual([natives.count, browsers.count], [Self.players, Self.players], "every planned player is in the report")
        let wire = try run.wirePhases()
        let chromium = wire.players.filter(\.chromium), ours = wire.players.filter { !$0.chromium }
        XCTAssertEqual([ours.count, chromium.count], [Self.players, Self.players], "each player's setup is on the capture")
        var table = ["phase: rtcswarm reported | rtcswarm on the wire | Chromium on the wire | Chromium's page (medians, ms), loss \(lossPerMille) per mille, "
                     + "worker lag max \(Self.text(lagMaxMs)) ms",
                     "signaling (SRS answering): - | \(Self.text(Self.median(ours.map(\.signalingMs)))) | \(Self.text(Self.median(chromium.map(\.signalingMs)))) | -",
                     "applying the answer: - | \(Self.text(Self.median(ours.map(\.applyingMs)))) | \(Self.text(Self.median(chromium.map(\.applyingMs)))) | -"]
        for (name, path) in Self.phases {
            table.append("\(name): \(Self.text(Self.median(natives.map { $0.phases[name] }))) | \(Self.text(Self.median(ours.map { $0[keyPath: path] }))) | "
                         + "\(Self.text(Self.median(chromium.map { $0[keyPath: path] }))) | \(Self.text(Self.median(browsers.map { $0.phases[name] })))")
            table.append("  each: rtcswarm \(Self.list(natives.map { $0.phases[name] })); Chromium on the wire \(Self.list(chromium.map { $0[keyPath: path] }))")
        }
        print(table.joined(separator: "\n"))
        return (natives, wire, lagMaxMs)
    }

    /// METRICS.md's tolerance: 10 % of Chromium's figure or 3 ms, whichever is larger.
    private static func allowed(_ chromium: Double) -> Double { max(3, chromium * 0.1) }
    private static func median(_ values: [Double?]) -> Double? { CalibrationRow.median(values.compactMap { $0 }) }
    private static func text(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
    private static func list(_ values: [Double?]) -> String { values.compactMap { $0 }.sorted().map { String(format: "%.1f", $0) }.joined(separator: " ") }
}
