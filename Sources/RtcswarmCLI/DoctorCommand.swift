#if canImport(Glibc)
import Glibc
#endif
import CAOM
import CDe265
import COpenH264
import COpenSSL
import COpus
import CSRTP
import CVPX
import CX265
import EventLoop
import Foundation
import Runtime
import Scenario

/// `rtcswarm doctor`: checks what limits how many peers this machine can run.
public enum DoctorCommand: Subcommand {
    public static let spec = CommandSpec(
        name: "doctor",
        summary: "Check limits, libraries, and whether a scenario's target answers.",
        options: [
            .value("peers", "N", default: "1000", "How many peers you plan to run in one process."),
        ],
        positionals: [.init("SCENARIO", optional: true, "A scenario whose target should answer (its peer count is used too).")],
        examples: ["rtcswarm doctor --peers 5000", "rtcswarm doctor Scenarios/rooms-stress.json5"]
    )

    /// One line of the checklist.
    public struct Check: Equatable {
        public let name: String
        public let ok: Bool
        public let detail: String
        public let fix: String?
    }

    public static func run(_ arguments: ParsedArguments, console: Console) -> ExitCode {
        let peers: Int
        do {
            peers = try arguments.int("peers", in: 1...1_000_000) ?? 1000
        } catch {
            console.error(error.description)
            return .usage
        }
        var checks: [Check]
        if let path = arguments.positionals.first {
            do {
                let scenario = try ScenarioLoader.load(file: path).scenario
                // A pair is two peers; every other role one.
                let planned = scenario.groups.reduce(0) { $0 + $1.count * ($1.role == .pair ? 2 : 1) }
                checks = self.checks(peers: planned) + [targetCheck(scenario.target)]
            } catch {
                console.error("error: \(error.description)")
                return .usage
            }
        } else {
            checks = self.checks(peers: peers)
        }
        for check in checks {
            console.out("\(check.ok ? "ok  " : "FAIL") \(check.name): \(check.detail)")
            if let fix = check.fix, !check.ok { console.out("     fix: \(fix)") }
        }
        return checks.allSatisfy(\.ok) ? .success : .couldNotRun
    }

    public static func checks(peers: Int) -> [Check] {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        // One UDP socket per peer, a TCP connection for its signaling, and some slack.
        let needed = UInt(peers * 2 + 64)
        let openFiles = Check(
            name: "open files", ok: UInt(limit.rlim_cur) >= needed,
            detail: "soft limit \(limit.rlim_cur), hard \(limit.rlim_max); \(peers) peers need about \(needed)",
            fix: "ulimit -n \(max(needed, 65_536)) (raise the hard limit in /etc/security/limits.conf if refused)")
        let wantedBuffer = 4 << 20
        let receiveMax = readProcInteger("/proc/sys/net/core/rmem_max")
        let sendMax = readProcInteger("/proc/sys/net/core/wmem_max")
        let buffers = Check(
            name: "socket buffers", ok: (receiveMax ?? 0) >= wantedBuffer && (sendMax ?? 0) >= wantedBuffer / 4,
            detail: "net.core.rmem_max \(receiveMax.map(String.init) ?? "unknown"), wmem_max \(sendMax.map(String.init) ?? "unknown")",
            fix: "sysctl -w net.core.rmem_max=\(wantedBuffer) net.core.wmem_max=\(wantedBuffer) (bursts of video overflow small buffers)")
        return [openFiles, buffers] + libraryChecks()
    }

    /// Whether the scenario's target accepts a TCP connection (the built-in server always does).
    static func targetCheck(_ target: Target) -> Check {
        guard let url = target.url, target.kind != .builtinRoom else {
            return Check(name: "target", ok: true, detail: "built-in room server, started by the run", fix: nil)
        }
        do {
            let resolved = try TargetResolver.resolve(url)
            let loop = try EventLoop()
            try Reachability.check(resolved.address, loop: loop, timeout: .seconds(3))
            return Check(name: "target", ok: true, detail: "\(url) answers at \(resolved.address)", fix: nil)
        } catch {
            return Check(name: "target", ok: false, detail: "\(url): \(error)",
                         fix: "start the server, or point the scenario at it (e.g. SRS_URL=http://127.0.0.1:1985)")
        }
    }

    static func libraryChecks() -> [Check] {
        let srtp = String(cString: srtp_get_version_string())
        let openssl = String(cString: OpenSSL_version(OPENSSL_VERSION))
        let opus = String(cString: opus_get_version_string())
        let vpx = String(cString: vpx_codec_version_str())
        let h264 = WelsGetCodecVersion()
        let x265 = String(cString: rs_x265_version())
        let de265 = String(cString: de265_get_version())
        let aom = String(cString: aom_codec_version_str())
        return [
            Check(name: "OpenSSL", ok: OpenSSL_version_num() >= 0x3000_0000, detail: openssl,
                  fix: "apt-get install libssl-dev (OpenSSL 3 is needed for DTLS 1.2 and the SRTP ciphers)"),
            Check(name: "libsrtp2", ok: true, detail: srtp, fix: nil),
            Check(name: "libopus", ok: true, detail: opus, fix: nil),
            Check(name: "libvpx", ok: true, detail: "libvpx \(vpx)", fix: nil),
            Check(name: "OpenH264", ok: h264.uMajor >= 2, detail: "OpenH264 \(h264.uMajor).\(h264.uMinor).\(h264.uRevision)",
                  fix: "apt-get install libopenh264-dev"),
            Check(name: "x265", ok: true, detail: "x265 \(x265)", fix: nil),
            Check(name: "libde265", ok: true, detail: "libde265 \(de265)", fix: nil),
            Check(name: "libaom", ok: true, detail: "libaom \(aom)", fix: nil),
        ]
    }

    static func readProcInteger(_ path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
