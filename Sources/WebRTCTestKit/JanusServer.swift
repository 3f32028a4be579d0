import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Janus WebRTC Server (Debian `janus`) on 127.0.0.1, configured as TARGETS.md says: HTTP
/// transport only (on a free port), ICE enforced to `lo`, mDNS ignored, only the EchoTest
/// and VideoRoom plugins, and the loopback shim preloaded so that libnice gathers
/// 127.0.0.1 at all. Its configuration and log live in a fresh temporary folder,
/// removed by `stop()`.
public final class JanusServer: @unchecked Sendable {
    public static let libraryFolder = "/usr/lib/x86_64-linux-gnu/janus"
    /// The plugins it loads; all others are disabled.
    public static let plugins = ["libjanus_echotest.so", "libjanus_videoroom.so"]

    public let directory: URL
    /// The HTTP API port on 127.0.0.1 (`http://127.0.0.1:<port>/janus`).
    public let port: UInt16
    /// What GET /janus/info said: "version_string", e.g. "1.1.2".
    public private(set) var version = ""
    private let process: ManagedProcess

    public var url: URL { URL(string: "http://127.0.0.1:\(port)/janus")! }

    /// Starts janus and returns once /janus/info answers; skips (fails under CI=true)
    /// when Janus or the shim is missing.
    public init(startTimeout: TimeInterval = 10) throws {
        let binary = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let environment = try LoopbackShim.environment()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("janus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try LoopbackPort.free(SOCK_STREAM)
        for (name, text) in Self.configuration(port: port, directory: directory) {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let log = directory.appendingPathComponent("janus.log").path
        process = try ManagedProcess(binary, ["-C", directory.appendingPathComponent("janus.jcfg").path, "-F", directory.path,
                                              "-o", "-L", log], environment: environment)
        let deadline = Date().addingTimeInterval(startTimeout)
        while Date() < deadline, process.isRunning {
            if let info = Self.getJSON(url.appendingPathComponent("info")), let version = info["version_string"] as? String {
                self.version = version
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let output = process.text
        stop()
        throw ExternalToolError("janus did not answer on 127.0.0.1:\(port): \(output.suffix(1500))")
    }

    deinit { stop() }

    /// The .jcfg files by name: janus.jcfg, the HTTP transport and the plugins.
    static func configuration(port: UInt16, directory: URL) -> [String: String] {
        let disabled = ["audiobridge", "duktape", "lua", "nosip", "recordplay", "sip", "streaming", "textroom", "videocall",
                        "voicemail"].map { "libjanus_\($0).so" }
        let transports = ["mqtt", "nanomsg", "pfunix", "rabbitmq", "websockets"].map { "libjanus_\($0).so" }
        let janus = """
            general: {
                configs_folder = "\(directory.path)"
                plugins_folder = "\(libraryFolder)/plugins"
                transports_folder = "\(libraryFolder)/transports"
                events_folder = "\(libraryFolder)/events"
                loggers_folder = "\(libraryFolder)/loggers"
                interface = "127.0.0.1"
                debug_level = 4
            }
            media: {
            }
            nat: {
                ice_enforce_list = "lo"
                ignore_mdns = true
            }
            plugins: {
                disable = "\(disabled.joined(separator: ","))"
            }
            transports: {
                disable = "\(transports.joined(separator: ","))"
            }
            events: {
                broadcast = false
            }

            """
        let http = """
            general: {
                json = "plain"
                base_path = "/janus"
                http = true
                port = \(port)
                ip = "127.0.0.1"
                https = false
            }
            admin: {
                admin_http = false
            }

            """
        return ["janus.jcfg": janus, "janus.transport.http.jcfg": http,
                "janus.plugin.echotest.jcfg": "general: {\n}\n", "janus.plugin.videoroom.jcfg": "general: {\n}\n"]
    }

    /// Its log so far.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("janus.log"), encoding: .utf8)) ?? process.text
    }

    public var isRunning: Bool { process.isRunning }

    /// Stops janus (the process this object started) and removes its folder.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// GET `url` as a JSON object, or nil (no answer within a second, not JSON).
    static func getJSON(_ url: URL) -> [String: Any]? {
        final class Box: @unchecked Sendable { var data: Data? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        var request = URLRequest(url: url)
        request.timeoutInterval = 1
        URLSession.shared.dataTask(with: request) { data, _, _ in
            box.data = data
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 2) == .success, let data = box.data else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
