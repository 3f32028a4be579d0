#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// coturn's `turnserver` (Debian `coturn`) on 127.0.0.1, configured as TARGETS.md says:
/// UDP on a free port, relays on 127.0.0.1 ports 49160-49300, long-term credentials
/// test:test in realm "test", loopback peers allowed, no TLS/DTLS/CLI. Its config, user
/// database, pid file and log live in a fresh temporary folder, removed by `stop()`.
public final class Coturn: @unchecked Sendable {
    public static let relayPorts: ClosedRange<UInt16> = 49160...49300
    public static let username = "test"
    public static let password = "test"
    public static let realm = "test"

    /// The folder with turnserver.conf, turn.pid, turn.log and the user database.
    public let directory: URL
    /// The UDP port it listens on (on 127.0.0.1).
    public let port: UInt16
    private let process: ManagedProcess

    /// "127.0.0.1:<port>", as aiortc_peer.py's `--turn` takes it.
    public var address: String { "127.0.0.1:\(port)" }

    /// Starts turnserver and returns once it answers a STUN binding request; skips (or
    /// fails under CI=true) when coturn is not installed.
    public init(startTimeout: TimeInterval = 10) throws {
        let binary = try ExternalTool.require("turnserver", installHint: "apt-get install coturn")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("coturn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try LoopbackPort.free(SOCK_DGRAM)
        let config = directory.appendingPathComponent("turnserver.conf")
        try Self.configuration(port: port, directory: directory).write(to: config, atomically: true, encoding: .utf8)
        process = try ManagedProcess(binary, ["-c", config.path])
        guard Self.answersBinding(port: port, timeout: startTimeout) else {
            let output = process.text + ((try? String(contentsOf: directory.appendingPathComponent("turn.log"), encoding: .utf8)) ?? "")
            stop()
            throw ExternalToolError("turnserver did not answer on 127.0.0.1:\(port): \(output.suffix(1500))")
        }
    }

    deinit { stop() }

    /// turnserver.conf: the command line of TARGETS.md, one option a line.
    static func configuration(port: UInt16, directory: URL) -> String {
        [
            "listening-ip=127.0.0.1", "listening-port=\(port)", "relay-ip=127.0.0.1",
            "min-port=\(relayPorts.lowerBound)", "max-port=\(relayPorts.upperBound)",
            "lt-cred-mech", "fingerprint", "user=\(username):\(password)", "realm=\(realm)",
            "no-tls", "no-dtls", "no-tcp", "no-cli", "no-rfc5780", "allow-loopback-peers",
            "userdb=\(directory.path)/turndb", "pidfile=\(directory.path)/turn.pid",
            "log-file=\(directory.path)/turn.log", "simple-log",
        ].joined(separator: "\n") + "\n"
    }

    /// Its log so far.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("turn.log"), encoding: .utf8)) ?? process.text
    }

    /// The pid it wrote to its pid file, if it did.
    public var pid: Int32? {
        (try? String(contentsOf: directory.appendingPathComponent("turn.pid"), encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    public var isRunning: Bool { process.isRunning }

    /// Stops turnserver (the process this object started) and removes its folder.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Sends STUN binding requests (RFC 8489 6) to 127.0.0.1:`port` every 50 ms until a
    /// success response (type 0x0101) comes back or `timeout` passes.
    static func answersBinding(port: UInt16, timeout: TimeInterval) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var wait = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        // Type 0x0001 (Binding request), length 0, magic cookie, 12-byte transaction ID.
        let request: [UInt8] = [0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xA4, 0x42] + Array(repeating: 0x5A, count: 12)
        var server = LoopbackPort.address(port: port)
        var reply = [UInt8](repeating: 0, count: 1500)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            _ = withUnsafePointer(to: &server) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, request, request.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            let count = recv(fd, &reply, reply.count, 0)
            if count >= 20, reply[0] == 0x01, reply[1] == 0x01, Array(reply[8..<20]) == Array(request[8..<20]) { return true }
            if count < 0 { Thread.sleep(forTimeInterval: 0.01) }
        }
        return false
    }
}
