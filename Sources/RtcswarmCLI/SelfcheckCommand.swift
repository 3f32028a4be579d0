import Foundation
import Report

/// `rtcswarm selfcheck`: the harness exercising itself on loopback, with a report.
public enum SelfcheckCommand: Subcommand {
    public static let spec = CommandSpec(
        name: "selfcheck",
        summary: "Run UDP peer pairs on one event loop over loopback and report loss, latency and loop lag.",
        options: [
            .value("pairs", "N", default: "50", "Number of peer pairs (each peer sends to its partner)."),
            .value("duration", "SECONDS", default: "5", "How long the peers send."),
            .value("rate", "PACKETS", default: "50", "Datagrams per second each peer sends."),
            .value("size", "BYTES", default: "1200", "Datagram payload size (at least 12)."),
            .value("out", "DIR", "Report folder (default: Reports/selfcheck-<UTC timestamp>)."),
        ],
        examples: ["rtcswarm selfcheck", "rtcswarm selfcheck --pairs 500 --duration 10 --out /tmp/check"]
    )

    public static func run(_ arguments: ParsedArguments, console: Console) -> ExitCode {
        let settings: LoopbackSelfcheck.Settings
        do {
            settings = LoopbackSelfcheck.Settings(
                pairs: try arguments.int("pairs", in: 1...5_000) ?? 50,
                duration: .milliseconds(Int64((try arguments.double("duration", in: 0.1...3_600) ?? 5) * 1000)),
                packetsPerSecond: try arguments.int("rate", in: 1...10_000) ?? 50,
                payloadBytes: try arguments.int("size", in: 12...2_048) ?? 1200
            )
        } catch {
            console.error(error.description)
            return .usage
        }
        let folder: ReportFolder
        do {
            folder = try ReportFolder(name: "selfcheck", out: arguments.string("out"))
        } catch {
            console.error("error: \(error)")
            return .couldNotRun
        }
        let result: LoopbackSelfcheck.Result
        do {
            result = try LoopbackSelfcheck(settings: settings).run(progress: console.out)
        } catch {
            console.error("error: \(error.description)\nhint: check 'ulimit -n' (two sockets per pair) and run 'rtcswarm doctor'")
            return .couldNotRun
        }
        do {
            try folder.writeJSON(result, to: "report.json")
            try folder.writeText(summary(result), to: "summary.md")
        } catch {
            console.error("error: cannot write the report to \(folder.url.path): \(AtomicFile.reason(error)); the summary follows")
            console.out(summary(result))
            return .couldNotRun
        }
        console.out(summary(result))
        console.out(folder.url.path)
        if result.invalidReason != nil { return .harnessSaturated }
        return result.packetsReceived == result.packetsSent ? .success : .thresholdFailed
    }

    static func summary(_ result: LoopbackSelfcheck.Result) -> String {
        func f(_ value: Double) -> String { String(format: "%.3f", value) }
        var lines = ["# rtcswarm selfcheck", ""]
        if let reason = result.invalidReason { lines += ["**invalid: harness saturated** (\(reason))", ""] }
        lines += [
            "| figure | value |",
            "|---|---|",
            "| peers | \(result.peers) |",
            "| duration | \(f(result.durationSeconds)) s at \(result.packetsPerSecondPerPeer) datagrams/s per peer, \(result.payloadBytes) bytes |",
            "| datagrams sent / received | \(result.packetsSent) / \(result.packetsReceived) |",
            "| loss | \(f(result.lossPct)) % |",
            "| one-way latency p50 / p99 / max | \(f(result.latencyMs.p50)) / \(f(result.latencyMs.p99)) / \(f(result.latencyMs.max)) ms |",
            "| loop lag p50 / p99 / max | \(f(result.loopLagMs.p50)) / \(f(result.loopLagMs.p99)) / \(f(result.loopLagMs.max)) ms |",
            "| socket drops / send failures | \(result.socketDrops) / \(result.sendFailures) |",
            "| CPU | \(f(result.cpuSeconds)) s, \(f(result.cpuMsPerPeerSecond)) ms per peer-second |",
            "| max RSS | \(f(result.maxResidentMB)) MB |",
        ]
        return lines.joined(separator: "\n")
    }
}
