import Foundation
import Report
import WebRTCTestKit
import XCTest

/// One run of a cohort scenario (the server's shipped one unless given) in its own network
/// and process namespaces (every process in them ends with the script), its server (SRS,
/// Janus, or the Pion WHIP/WHEP test server) started inside, tshark capturing the server's
/// HTTP and RTC ports, and with `lossPerMille` that share of the setup's
/// datagrams dropped (STUN and DTLS, whose first byte is below 128, RFC 7983 7; media is
/// left alone, so a stream's start does not hang on a lost keyframe), in each direction
/// where the capture sees what the player did: the player's after the capture (on input,
/// so the capture has every one it sent), the server's before it (on output, so the capture
/// has only those the player got).
struct CohortRun {
    enum Server {
        /// SRS on 1985 (API) and 8000 (RTC), as `SRS_URL`.
        case srs
        /// The Pion test server on 8088, as `WHIP_URL` and `WHEP_URL` (`{stream}` in the path).
        case pion
        /// Janus 1.1 (Debian) with the loopback shim, its HTTP API on 8088 as `JANUS_URL`,
        /// ICE and media on UDP 10000-10999 (below the namespace's ephemeral ports, where
        /// the players' are).
        case janus

        /// The server's UDP ports, which the loss rules and the capture name.
        var rtcPorts: ClosedRange<Int>? {
            switch self {
            case .srs: 8000...8000
            case .janus: 10000...10999
            case .pion: nil
            }
        }

        /// Its shipped scenario and the variable that sets how many peers each client runs.
        var scenario: (file: String, count: String) {
            switch self {
            case .srs, .pion: ("srs-browser-cohort.json5", "PLAYERS")
            case .janus: ("janus-browser-cohort.json5", "PEERS")
            }
        }
    }

    let server: Server
    /// The scenario's text; nil for the server's shipped one.
    let scenarioText: String?
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cohort-\(UUID().uuidString.prefix(8))")
    let lossPerMille: Int
    let players: Int
    /// More of the scenario's variables, or others than the run's defaults
    /// (`PUBLISHER_CLIENT`, `SRS_API`, `DURATION_S`, `RATE`, `CODEC`).
    let variables: [String: String]
    let tshark: URL
    private let unshare: URL
    /// The script lines that start the server and set its variables.
    private let serverStart: String
    private static let (apiPort, pionPort, janusPort, janusAdminPort) = (1985, 8088, 8088, 7088)

    init(server: Server = .srs, scenario: String? = nil, lossPerMille: Int = 0, players: Int, variables: [String: String] = [:]) throws {
        precondition(server.rtcPorts != nil || lossPerMille == 0, "the loss rules name the server's RTC ports")
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
            serverStart = "eval \"$('\(try SRSUnderTest.startScript().path)' '\(folder.path)/srs' \(Self.apiPort) \(server.rtcPorts!.lowerBound))\""
        case .pion:
            let log = folder.appendingPathComponent("pion.log").path
            serverStart = """
                '\(try PionServer.binary().path)' -port \(Self.pionPort) > '\(log)' 2>&1 &
                for i in $(seq 100); do grep -q listening '\(log)' && break; sleep 0.1; done
                WHIP_URL='http://127.0.0.1:\(Self.pionPort)/whip/{stream}' WHEP_URL='http://127.0.0.1:\(Self.pionPort)/whep/{stream}'
                """
        case .janus:
            let janus = try ExternalTool.require("janus", installHint: "apt-get install janus")
            let configuration = JanusConfiguration(folder: folder.appendingPathComponent("janus"), port: UInt16(Self.janusPort),
                                                   adminPort: UInt16(Self.janusAdminPort), rtpPorts: server.rtcPorts)
            try configuration.write()
            let log = folder.appendingPathComponent("janus.log").path
            serverStart = """
                LD_PRELOAD='\(try LoopbackShim.library().path)' '\(janus.path)' \(configuration.arguments.map { "'\($0)'" }.joined(separator: " ")) > '\(log)' 2>&1 &
                for i in $(seq 100); do grep -q 'HTTP webserver started' '\(log)' && break; sleep 0.1; done
                grep -q 'HTTP webserver started' '\(log)' || { echo "Janus did not start:"; tail -20 '\(log)'; exit 1; }
                JANUS_URL='http://127.0.0.1:\(Self.janusPort)/janus'
                """
        }
    }

    var capture: String { folder.appendingPathComponent("capture.pcapng").path }

    /// Runs the scenario and returns its report; a run that did not finish throws with its output.
    func start() throws -> RunReport {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rtcswarm = try ExternalTool.requireFile(ExternalTool.repositoryRoot.appendingPathComponent(".build/release/rtcswarm").path,
                                                    installHint: "swift build -c release --product rtcswarm; scripts/run-tests.sh builds it").path
        var scenario = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios/" + server.scenario.file).path
        if let scenarioText {
            scenario = folder.appendingPathComponent("scenario.json5").path
            try scenarioText.write(toFile: scenario, atomically: true, encoding: .utf8)
        }
        let ports = switch server {
        case .srs: "udp port \(Self.rtcPort(server)) or tcp port \(Self.apiPort)"
        case .janus: "udp portrange \(Self.rtcPort(server)) or tcp port \(Self.janusPort)"
        case .pion: "udp or tcp port \(Self.pionPort)"
        }
        let out = folder.appendingPathComponent("out").path
        let drop = lossPerMille == 0 ? "" : """
            nft add table inet cohort
            nft add chain inet cohort out '{ type filter hook output priority 0; }'
            nft add chain inet cohort in '{ type filter hook input priority 0; }'
            nft add rule inet cohort out udp sport \(Self.rtcPort(server)) @th,64,8 '<' 128 numgen random mod 1000 '<' \(lossPerMille) drop
            nft add rule inet cohort in udp dport \(Self.rtcPort(server)) @th,64,8 '<' 128 numgen random mod 1000 '<' \(lossPerMille) drop

            """
        let settings = [server.scenario.count: "\(players)", "DURATION_S": "8", "RESOLUTION": "320x180"].merging(variables) { $1 }
        let assignments = settings.sorted { $0.key < $1.key }.map { " \($0.key)='\($0.value)'" }.joined()
        let script = """
            set -e
            SRS_URL= WHIP_URL= WHEP_URL= JANUS_URL=
            ip link set lo up
            \(drop)\(serverStart)
            tshark -i lo -B 64 -f '\(ports)' -w '\(capture)' -q > '\(folder.path)/tshark.log' 2>&1 &
            capturing=$!
            for i in $(seq 100); do [ -s '\(capture)' ] && break; sleep 0.1; done
            set +e
            env SRS_URL="$SRS_URL" WHIP_URL="$WHIP_URL" WHEP_URL="$WHEP_URL" JANUS_URL="$JANUS_URL"\(assignments) '\(rtcswarm)' run '\(scenario)' --out '\(out)'
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
        try WireSetupPhases(tshark: tshark, capture: capture, offerPath: server == .janus ? "/janus/" : "/rtc/v1/whep/",
                            serverPorts: server.rtcPorts ?? 0...0)
    }

    /// The server's UDP ports as tshark's `portrange` and nftables spell them: `8000`,
    /// `10000-10999`.
    private static func rtcPort(_ server: Server) -> String {
        guard let ports = server.rtcPorts else { return "" }
        return ports.count == 1 ? "\(ports.lowerBound)" : "\(ports.lowerBound)-\(ports.upperBound)"
    }

    /// Deletes the run's folder, unless `RTCSWARM_KEEP_CAPTURES=1` asks to keep it (the
    /// capture, the report, Chromium's and the server's logs) to read after a failure.
    func remove() {
        guard ProcessInfo.processInfo.environment["RTCSWARM_KEEP_CAPTURES"] != "1" else { return print("cohort run kept in \(folder.path)") }
        try? FileManager.default.removeItem(at: folder)
    }
}
