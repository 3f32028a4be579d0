import Foundation
import Report
import WebRTCTestKit
import XCTest

/// One run of `Scenarios/srs-browser-cohort.json5` in its own network and process
/// namespaces (every process in them ends with the script), SRS started inside, tshark
/// capturing its API and RTC ports, and with `lossPerMille` that share of the setup's
/// datagrams dropped (STUN and DTLS, whose first byte is below 128, RFC 7983 7; media is
/// left alone, so a stream's start does not hang on a lost keyframe), in each direction
/// where the capture sees what the player did: the player's after the capture (on input,
/// so the capture has every one it sent), SRS's before it (on output, so the capture has
/// only those the player got).
struct CohortRun {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cohort-\(UUID().uuidString.prefix(8))")
    let lossPerMille: Int
    let players: Int
    /// More of the scenario's variables, or others than the run's defaults
    /// (`PUBLISHER_CLIENT`, `SRS_API`, `DURATION_S`, `RATE`).
    let variables: [String: String]
    let tshark: URL
    private let unshare: URL
    private let srsStart: URL
    private static let (apiPort, rtcPort) = (1985, 8000)

    init(lossPerMille: Int = 0, players: Int, variables: [String: String] = [:]) throws {
        self.lossPerMille = lossPerMille
        self.players = players
        self.variables = variables
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
            nft add chain inet cohort in '{ type filter hook input priority 0; }'
            nft add rule inet cohort out udp sport \(Self.rtcPort) @th,64,8 '<' 128 numgen random mod 1000 '<' \(lossPerMille) drop
            nft add rule inet cohort in udp dport \(Self.rtcPort) @th,64,8 '<' 128 numgen random mod 1000 '<' \(lossPerMille) drop

            """
        let settings = ["PLAYERS": "\(players)", "DURATION_S": "8", "RESOLUTION": "320x180"].merging(variables) { $1 }
        let assignments = settings.sorted { $0.key < $1.key }.map { " \($0.key)='\($0.value)'" }.joined()
        let script = """
            set -e
            ip link set lo up
            \(drop)eval "$('\(srsStart.path)' '\(folder.path)/srs' \(Self.apiPort) \(Self.rtcPort))"
            tshark -i lo -f 'udp port \(Self.rtcPort) or tcp port \(Self.apiPort)' -w '\(capture)' -q > '\(folder.path)/tshark.log' 2>&1 &
            capturing=$!
            for i in $(seq 100); do [ -s '\(capture)' ] && break; sleep 0.1; done
            set +e
            env SRS_URL="$SRS_URL"\(assignments) '\(rtcswarm)' run '\(scenario)' --out '\(out)'
            status=$?
            sleep 0.5
            kill -INT $capturing; wait $capturing
            kill -9 "$SRS_PID"
            exit $status
            """
        let result = try ExternalTool.run(unshare, ["--net", "--pid", "--fork", "sh", "-c", script])
        let logs = (try? FileManager.default.contentsOfDirectory(atPath: out))?.filter { $0.hasPrefix("chromium-") }.sorted() ?? []
        let log = logs.compactMap { try? String(contentsOfFile: out + "/" + $0, encoding: .utf8).suffix(1500) }.joined(separator: "\n")
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
