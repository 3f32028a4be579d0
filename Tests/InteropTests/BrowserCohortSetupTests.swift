import Foundation
import Report
import WebRTCTestKit
import XCTest

/// rtcswarm's setup phases beside Chromium's on the same SRS at the same time (METRICS.md:
/// within 10 % or 3 ms). `Scenarios/srs-browser-cohort.json5` runs rtcswarm players and
/// Chromium players (`groups[].client: "chromium"`) of one stream, interleaved, inside a
/// network namespace that has only `lo`, with SRS started in it and tshark capturing; for
/// the lossy case nftables drops a share of every UDP datagram there, both clients' alike.
/// Chromium's phases are read off the capture (`WireSetupPhases`): what the network, SRS
/// and its ICE and DTLS pacing and timers took, without the time it spends in its own
/// process (applying the answer, 2-5 ms here; its page's fetch), which is the browser's
/// CPU and not what rtcswarm must reproduce. Its page's own timings are printed beside.
/// rtcswarm runs from its release build, as users run it.
final class BrowserCohortSetupTests: XCTestCase {
    func testSetupPhasesAgreeWithChromiumsOnTheSameSRS() throws {
        try compare(lossPerMille: 0)
    }

    func testSetupPhasesAgreeWithChromiumsOnTheSameSRSAtFivePercentLoss() throws {
        try compare(lossPerMille: 50)
    }

    /// The players per client: enough that one player's retransmitted flight under loss
    /// does not move the median.
    private static let players = 8

    private func compare(lossPerMille: Int) throws {
        let loss = lossPerMille > 0 ? " at \(Double(lossPerMille) / 10) % UDP loss (nftables)" : ""
        let cell = InteropRecorder.cell(self, target: "SRS", role: "WHEP players beside Chromium's: setup phases as Chromium's\(loss)",
                                        codec: "H.264+Opus")
        let run = try CohortRun(lossPerMille: lossPerMille, players: Self.players)
        defer { run.remove() }
        let report = try run.start()
        let peers = report.cells.flatMap(\.peers)
        cell.measured(peers: peers)
        for peer in peers where peer.outcome != .completed {
            XCTFail("\(peer.id) (\(peer.client ?? "rtcswarm")) \(peer.outcome) in \(peer.failedPhase ?? "?"): \(peer.failureReason ?? "")")
        }
        let natives = peers.filter { $0.client == nil && $0.role == "player" }
        let browsers = peers.filter { $0.client == "chromium" }
        XCTAssertEqual([natives.count, browsers.count], [Self.players, Self.players], "every planned player is in the report")
        let wire = try run.wirePhases()
        let chromiumWire = wire.players.filter(\.chromium), rtcswarmWire = wire.players.filter { !$0.chromium }
        XCTAssertEqual([rtcswarmWire.count, chromiumWire.count], [Self.players, Self.players], "each player's setup is on the capture")
        XCTAssertNotNil(report.cells.first?.calibration, "the report sets the two clients side by side")

        func median(_ values: [Double?]) -> Double? { CalibrationRow.median(values.compactMap { $0 }) }
        let phases: [(String, KeyPath<WireSetupPhases.Player, Double?>)] = [("ice_ms", \.iceMs), ("dtls_ms", \.dtlsMs), ("setup_ms", \.setupMs)]
        var table = ["phase: rtcswarm reported | rtcswarm on the wire | Chromium on the wire | Chromium's page (medians, ms)\(loss)",
                     "applying the answer: - | \(Self.text(median(rtcswarmWire.map(\.applyingMs)))) | "
                     + "\(Self.text(median(chromiumWire.map(\.applyingMs)))) | -"]
        for (name, path) in phases {
            let reported = median(natives.map { $0.phases[name] })
            let chromium = median(chromiumWire.map { $0[keyPath: path] })
            table.append("\(name): \(Self.text(reported)) | \(Self.text(median(rtcswarmWire.map { $0[keyPath: path] }))) | "
                         + "\(Self.text(chromium)) | \(Self.text(median(browsers.map { $0.phases[name] })))")
            guard let reported, let chromium else {
                XCTFail("\(name): no median (rtcswarm \(Self.text(reported)), Chromium \(Self.text(chromium)))")
                continue
            }
            let allowed = max(3, chromium * 0.1)
            XCTAssertLessThanOrEqual(abs(reported - chromium), allowed,
                                     "\(name): rtcswarm's median \(Self.text(reported)) ms against Chromium's \(Self.text(chromium)) ms "
                                     + "on the same capture\(loss); allowed ±\(Self.text(allowed)) ms")
        }
        print(table.joined(separator: "\n"))
    }

    private static func text(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
}

/// One run of the cohort scenario in its own network and process namespaces (every
/// process in them ends with the script), with its capture.
private struct CohortRun {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cohort-\(UUID().uuidString.prefix(8))")
    let lossPerMille: Int
    let players: Int
    let tshark: URL
    private let unshare: URL
    private let srsStart: URL
    private static let (apiPort, rtcPort) = (1985, 8000)

    init(lossPerMille: Int, players: Int) throws {
        self.lossPerMille = lossPerMille
        self.players = players
        _ = try ExternalTool.require("chromium", installHint: "apt-get install chromium")
        _ = try ExternalTool.require("ip", installHint: "apt-get install iproute2")
        if lossPerMille > 0 { _ = try ExternalTool.require("nft", installHint: "apt-get install nftables") }
        unshare = try ExternalTool.require("unshare", installHint: "apt-get install util-linux")
        tshark = try ExternalTool.require("tshark", installHint: "apt-get install tshark")
        srsStart = try SRSUnderTest.startScript()
    }

    var capture: String { folder.appendingPathComponent("capture.pcapng").path }

    /// Runs the scenario and returns its report; a run that did not finish throws with its output.
    func start() throws -> RunReport {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rtcswarm = try ExternalTool.requireFile(ExternalTool.repositoryRoot.appendingPathComponent(".build/release/rtcswarm").path,
                                                    installHint: "swift build -c release --product rtcswarm; scripts/run-tests.sh builds it").path
        let scenario = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios/srs-browser-cohort.json5").path
        let out = folder.appendingPathComponent("out").path
        let drop = lossPerMille == 0 ? "" : """
            nft add table inet cohort
            nft add chain inet cohort out '{ type filter hook output priority 0; }'
            nft add rule inet cohort out meta l4proto udp numgen random mod 1000 '<' \(lossPerMille) drop

            """
        let script = """
            set -e
            ip link set lo up
            \(drop)eval "$('\(srsStart.path)' '\(folder.path)/srs' \(Self.apiPort) \(Self.rtcPort))"
            tshark -i lo -f 'udp port \(Self.rtcPort) or tcp port \(Self.apiPort)' -w '\(capture)' -q > '\(folder.path)/tshark.log' 2>&1 &
            capturing=$!
            for i in $(seq 100); do [ -s '\(capture)' ] && break; sleep 0.1; done
            set +e
            env SRS_URL="$SRS_URL" PLAYERS=\(players) DURATION_S=8 RESOLUTION=320x180 '\(rtcswarm)' run '\(scenario)' --out '\(out)'
            status=$?
            sleep 0.5
            kill -INT $capturing; wait $capturing
            kill -9 "$SRS_PID"
            exit $status
            """
        let result = try ExternalTool.run(unshare, ["--net", "--pid", "--fork", "sh", "-c", script])
        let log = (try? String(contentsOfFile: out + "/chromium-g2.log", encoding: .utf8)) ?? "(no log)"
        guard let data = FileManager.default.contents(atPath: out + "/report.json") else {
            throw ExternalToolError("the cohort run wrote no report (exit \(result.status)): \(result.output.suffix(2000))\nChromium: \(log.suffix(1500))")
        }
        if result.status != 0 { print("cohort run exited \(result.status): \(result.output.suffix(1500))\nChromium: \(log.suffix(800))") }
        return try JSONDecoder().decode(RunReport.self, from: data)
    }

    func wirePhases() throws -> WireSetupPhases {
        try WireSetupPhases(tshark: tshark, capture: capture, offerPath: "/rtc/v1/whep/", rtcPort: Self.rtcPort)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
