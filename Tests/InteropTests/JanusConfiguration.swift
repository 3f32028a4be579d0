import Foundation

/// The configuration folder of a Janus 1.1 (Debian package) for tests, on 127.0.0.1 only
/// (TARGETS.md): the HTTP transport (and, when asked, the WebSocket transport), every
/// other transport, the unused plugins and the event handlers disabled, the admin API on
/// its own loopback port, ICE on `lo` only (libnice needs the loopback shim to gather it)
/// and, when given, a fixed UDP port range for ICE and media. `JanusServer` starts Janus
/// on it for one test; `CohortRun` starts it inside a network namespace.
struct JanusConfiguration {
    let folder: URL
    let port: UInt16
    let adminPort: UInt16
    /// The WebSocket transport's port (`janus-protocol`), when it is on.
    var webSocketPort: UInt16?
    /// Its `wss` port, when a certificate was given.
    var secureWebSocketPort: UInt16?
    var certificate: (pem: URL, key: URL)?
    /// Janus's ICE and media ports (`media.rtp_port_range`); nil: any.
    var rtpPorts: ClosedRange<Int>?

    /// The plugins these tests use; every other one is disabled.
    static let plugins = ["libjanus_echotest.so", "libjanus_videoroom.so"]
    /// Janus's sample `admin_secret`.
    static let adminSecret = "janusoverlord"
    /// The VideoRoom room configured at start.
    static let standingRoom = 1234
    private static let library = "/usr/lib/x86_64-linux-gnu/janus"

    var pidFile: URL { folder.appendingPathComponent("janus.pid") }

    /// Janus's arguments: this configuration, its pid file, logging to stdout.
    var arguments: [String] {
        ["-C", folder.appendingPathComponent("janus.jcfg").path, "-F", folder.path, "-p", pidFile.path, "-o"]
    }

    /// Writes every file into `folder` (created).
    func write() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let transports = webSocketPort == nil ? ["libjanus_http.so"] : ["libjanus_http.so", "libjanus_websockets.so"]
        let unusedPlugins = try Self.libraries("plugins").filter { !Self.plugins.contains($0) }
        let otherTransports = try Self.libraries("transports").filter { !transports.contains($0) }
        let general = """
            general: {
            \tconfigs_folder = "\(folder.path)"
            \tplugins_folder = "\(Self.library)/plugins"
            \ttransports_folder = "\(Self.library)/transports"
            \tevents_folder = "\(Self.library)/events"
            \tloggers_folder = "\(Self.library)/loggers"
            \tdebug_level = 4
            \tserver_name = "rtcswarm-interop"
            \tinterface = "127.0.0.1"
            \tsession_timeout = 60
            \tadmin_secret = "\(Self.adminSecret)"
            }
            certificates: {
            }
            media: {
            \(rtpPorts.map { "\trtp_port_range = \"\($0.lowerBound)-\($0.upperBound)\"" } ?? "")
            }
            nat: {
            \tice_enforce_list = "lo"
            \tignore_mdns = true
            \tfull_trickle = false
            }
            plugins: {
            \tdisable = "\(unusedPlugins.joined(separator: ","))"
            }
            transports: {
            \tdisable = "\(otherTransports.joined(separator: ","))"
            }
            loggers: {
            \tdisable = "libjanus_jsonlog.so"
            }
            events: {
            \tbroadcast = false
            \tdisable = "\(try Self.libraries("events").joined(separator: ","))"
            }

            """
        let http = """
            general: {
            \tjson = "indented"
            \tbase_path = "/janus"
            \thttp = true
            \tport = \(port)
            \tip = "127.0.0.1"
            \thttps = false
            }
            admin: {
            \tadmin_base_path = "/admin"
            \tadmin_http = true
            \tadmin_port = \(adminPort)
            \tadmin_ip = "127.0.0.1"
            \tadmin_https = false
            }
            cors: {
            }

            """
        try general.write(to: folder.appendingPathComponent("janus.jcfg"), atomically: true, encoding: .utf8)
        try http.write(to: folder.appendingPathComponent("janus.transport.http.jcfg"), atomically: true, encoding: .utf8)
        if let webSocketPort {
            let websockets = """
                general: {
                \tjson = "indented"
                \tws = true
                \tws_port = \(webSocketPort)
                \tws_ip = "127.0.0.1"
                \twss = \(secureWebSocketPort != nil)
                \twss_port = \(secureWebSocketPort ?? 0)
                \twss_ip = "127.0.0.1"
                }
                admin: {
                \tadmin_ws = false
                \tadmin_wss = false
                }
                certificates: {
                \(certificate.map { "\tcert_pem = \"\($0.pem.path)\"\n\tcert_key = \"\($0.key.path)\"" } ?? "")
                }

                """
            try websockets.write(to: folder.appendingPathComponent("janus.transport.websockets.jcfg"), atomically: true, encoding: .utf8)
        }
        try "general: {\n}\n".write(to: folder.appendingPathComponent("janus.plugin.echotest.jcfg"), atomically: true, encoding: .utf8)
        // One standing room (as Debian's sample config has) for runs whose players need a
        // room id known in advance; other tests create their own rooms.
        let videoroom = """
        general: {
        }
        room-\(Self.standingRoom): {
            description = "rtcswarm"
            publishers = 16
            videocodec = "vp8"
            audiocodec = "opus"
        }

        """
        try videoroom.write(to: folder.appendingPathComponent("janus.plugin.videoroom.jcfg"), atomically: true, encoding: .utf8)
    }

    /// The `.so` files of one of Janus's library folders.
    private static func libraries(_ kind: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "\(library)/\(kind)").filter { $0.hasSuffix(".so") }
    }
}
