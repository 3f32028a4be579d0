import Foundation
import Report
import WebRTCTestKit
import XCTest

/// One run of a cohort scenario (`Scenarios/srs-browser-cohort.json5` unless given) in its
/// own network and process namespaces (every process in them ends with the script), its
/// server (SRS, or the Pion WHIP/WHEP test server) started inside, tshark capturing the
/// server's HTTP and RTC ports, and with `lossPerMille` that share of the setup's
/// datagrams dropped (STUN and DTLS, whose first byte is below 128, RFC 7983 7; media is
/// left alone, so a stream's start does not hang on a lost keyframe), in each direction
/// where the capture sees what the player did: the player's after the capture (on input,
/// so the capture has every one it sent), SRS's before it (on output, so the capture has
/// only those the player got).
struct CohortRun {
    enum Server {
        /// SRS on 1985 (API) and 8000 (RTC), as `SRS_URL`.
        case srs
        /// The Pion test server on 8088, as `WHIP_URL` and `WHEP_URL` (`{stream}` in the path).
        case pion
    }

    let server: Server
    /// The scenario's text; nil for `Scenarios/srs-browser-cohort.json5`.
    let scenarioText: String?
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cohort-\(UUID().uuidString.prefix(8))")
    let lossPerMille: Int
    let players: Int
    /// More of the scenario's variables, or others than the run's defaults
    /// (`PUBLISHER_CLIENT`, `SRS_API`, `DURATION_S`, `RATE`).
    let variables: [String: String]
    let tshark: URL
    private let unshare: URL
    /// The script lines that start the server and set its variables.
    private let serverStart: String
    private static let (apiPort, rtcPort, pionPort) = (1985, 8000, 8088)

    init(server: Server = .srs, scenario: String? = nil, lossPerMille: Int = 0, players: Int, variables: [String: String] = [:]) throws {
        precondition(server == .srs || lossPerMille == 0, "the loss rules name SRS's RTC port")
        self.server = server
        scenarioText = scenario
        self.lossPerMille = lossPerMille
        self.players = players
        self.variables = variables
        _ = try ExternalTool.require("chromium", installHint: "apt-get install chromium")
        _ = try ExternalTool.require("ip", installHint: "apt-get install iproute2")
        if lossPerMille > 0 { _ = try ExternalTool.require("nft", installHint: "apt-get install nftables") }
        unshare = try ExternalTool.require("unshare", installHint: "apt-get install util-linux")
        tshark = try ExternalTool.require("tshark", installHint: "apt-get install tshark")
        switch server {
        case .srs:
            serverStart = "eval \"$('\(try SRSUnderTest.startScript().path)' '\(folder.path)/srs' \(Self.apiPort) \(Self.rtcPort))\""
        case .pion:
            let log = folder.appendingPathComponent("pion.log").path
            serverStart = """
                '\(try PionServer.binary().path)' -port \(Self.pionPort) > '\(log)' 2>&1 &
                for i in $(seq 100); do grep -q listening '\(log)' && break; sleep 0.1; done
                WHIP_URL='http://127.0.0.1:\(Self.pionPort)/whip/{stream}' WHEP_URL='http://127.0.0.1:\(Self.pionPort)/whep/{stream}'
                """
        }
    }

    var capture: String { folder.appendingPathComponent("capture.pcapng").path }

    /// Runs the scenario and returns its report; a run that did not finish throws with its output.
    func start() throws -> RunReport {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rtcswarm = try ExternalTool.requireFile(ExternalTool.repositoryRoot.appendingPathComponent(".build/release/rtcswarm").path,
                                                    installHint: "swift build -c release --product rtcswarm; scripts/run-tests.sh builds it").path
        var scenario = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios/srs-browser-cohort.json5").path
        if let scenarioText {
            scenario = folder.appendingPathComponent("scenario.json5").path
            try scenarioText.write(toFile: scenario, atomically: true, encoding: .utf8)
        }
        let ports = server == .srs ? "udp port \(Self.rtcPort) or tcp port \(Self.apiPort)" : "udp or tcp port \(Self.pionPort)"
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
            SRS_URL= WHIP_URL= WHEP_URL=
            ip link set lo up
            \(drop)\(serverStart)
            tshark -i lo -f '\(ports)' -w '\(capture)' -q > '\(folder.path)/tshark.log' 2>&1 &
            capturing=$!
            for i in $(seq 100); do [ -s '\(capture)' ] && break; sleep 0.1; done
            set +e
            env SRS_URL="$SRS_URL" WHIP_URL="$WHIP_URL" WHEP_URL="$WHEP_URL"\(assignments) '\(rtcswarm)' run '\(scenario)' --out '\(out)'
            status=$?
            sleep 0.5
            kill -INT $capturing; wait $capturing
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
