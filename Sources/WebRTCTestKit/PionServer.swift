#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The Pion test server of Tests/Interop/pion (WHIP ingest, WHEP fan-out, echo peer,
/// `/stats`) on a free port of 127.0.0.1. scripts/run-tests.sh builds it into
/// `.build/interop/rtcswarm-pion` with Debian's Go; when that binary is missing, the first
/// test to start one builds it with Tests/Interop/pion/build.sh. Without Go or Debian's
/// Pion sources a test skips with the reason (fails under CI=true).
public final class PionServer: @unchecked Sendable {
    public static let relativePath = ".build/interop/rtcswarm-pion"
    /// The Debian package with Pion's Go sources.
    public static let sourcePackage = "golang-github-pion-webrtc.v3-dev"
    static let installHint = "apt-get install golang-go \(sourcePackage)"

    /// The HTTP port it listens on (on 127.0.0.1).
    public let port: UInt16
    private let process: ManagedProcess

    /// "http://127.0.0.1:<port>": WHIP at `/whip/<stream>`, WHEP at `/whep/<stream>`, the
    /// echo peer at `/echo`, statistics at `/stats`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Starts the server and returns once it printed that it listens.
    public init(startTimeout: TimeInterval = 15) throws {
        let binary = try Self.binary()
        port = try LoopbackPort.free(SOCK_STREAM)
        process = try ManagedProcess(binary, ["-port", String(port)])
        guard process.firstLine(timeout: startTimeout) == "listening 127.0.0.1:\(port)" else {
            let output = process.text
            process.stop()
            throw ExternalToolError("the Pion server did not start on 127.0.0.1:\(port): \(output.suffix(1500))")
        }
    }

    deinit { stop() }

    /// Everything it printed so far (Pion logs warnings to standard error).
    public var log: String { process.text }

    public var isRunning: Bool { process.isRunning }

    /// Stops the server (the process this object started).
    public func stop() { process.stop() }

    private static let buildLock = NSLock()

    /// The built server; builds it when it is missing or older than its sources.
    public static func binary() throws -> URL {
        let root = ExternalTool.repositoryRoot
        let built = root.appendingPathComponent(relativePath)
        let sources = root.appendingPathComponent("Tests/Interop/pion")
        buildLock.lock()
        defer { buildLock.unlock() }
        if FileManager.default.isExecutableFile(atPath: built.path), !isOlder(built, than: sources) { return built }
        _ = try ExternalTool.require("go", installHint: installHint)
        _ = try ExternalTool.requireFile("/usr/share/gocode/src/github.com/pion/webrtc/go.mod", installHint: installHint)
        let result = try ExternalTool.run(URL(fileURLWithPath: "/bin/bash"),
                                          [sources.appendingPathComponent("build.sh").path, built.deletingLastPathComponent().path])
        guard result.status == 0 else { throw ExternalToolError("Tests/Interop/pion/build.sh failed: \(result.output.suffix(1500))") }
        return built
    }

    /// Whether `file` is older than any file in `folder`.
    static func isOlder(_ file: URL, than folder: URL) -> Bool {
        func modified(_ url: URL) -> Date { (try? url.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantPast }
        let builtAt = modified(file)
        let contents = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        return contents.contains { modified($0) > builtAt }
    }
}
