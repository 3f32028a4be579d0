import EventLoop
import Foundation
import Net
import Runtime
import RTCBase
import WebRTCTestKit
import XCTest

/// A Janus 1.1 (Debian package) started for one test on 127.0.0.1 only (TARGETS.md): its
/// configuration in a temporary folder, the HTTP transport on a free loopback port (and,
/// when asked, the WebSocket transport on another), every other transport and the unused
/// plugins disabled, the admin API on a further loopback port, ICE on `lo` only (with the
/// loopback shim), a pid file, stopped by that pid.
final class JanusServer: Sendable {
    let port: UInt16
    let adminPort: UInt16
    /// The WebSocket transport's port (`janus-protocol`), when it is on.
    let webSocketPort: UInt16?
    /// Its `wss` port, when a certificate was given.
    let secureWebSocketPort: UInt16?
    /// Janus's sample `admin_secret`.
    static let adminSecret = "janusoverlord"
    let folder: URL
    private let process: ManagedProcess

    /// The plugins these tests use; every other one is disabled.
    static let plugins = ["libjanus_echotest.so", "libjanus_videoroom.so"]

    /// `webSocket` also turns on libjanus_websockets.so (`ws`, 127.0.0.1 only, admin
    /// WebSocket off); with `certificate` (PEM files) also `wss` on a port of its own.
    init(executable: URL, shim: URL, webSocket: Bool = false, certificate: (pem: URL, key: URL)? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rtcswarm-janus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try JanusServer.freePort()
        adminPort = try JanusServer.freePort()
        webSocketPort = webSocket ? try JanusServer.freePort() : nil
        secureWebSocketPort = webSocket && certificate != nil ? try JanusServer.freePort() : nil
        let transports = webSocket ? ["libjanus_http.so", "libjanus_websockets.so"] : ["libjanus_http.so"]
        let library = "/usr/lib/x86_64-linux-gnu/janus"
        let unusedPlugins = try FileManager.default.contentsOfDirectory(atPath: "\(library)/plugins")
            .filter { $0.hasSuffix(".so") && !JanusServer.plugins.contains($0) }
        let otherTransports = try FileManager.default.contentsOfDirectory(atPath: "\(library)/transports")
            .filter { $0.hasSuffix(".so") && !transports.contains($0) }
        let eventHandlers = try FileManager.default.contentsOfDirectory(atPath: "\(library)/events").filter { $0.hasSuffix(".so") }
        let general = """
            general: {
            \tconfigs_folder = "\(folder.path)"
            \tplugins_folder = "\(library)/plugins"
            \ttransports_folder = "\(library)/transports"
            \tevents_folder = "\(library)/events"
            \tloggers_folder = "\(library)/loggers"
            \tdebug_level = 4
            \tserver_name = "rtcswarm-interop"
            \tinterface = "127.0.0.1"
            \tsession_timeout = 60
            \tadmin_secret = "\(Self.adminSecret)"
            }
            certificates: {
            }
            media: {
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
            \tdisable = "\(eventHandlers.joined(separator: ","))"
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
        process = try ManagedProcess(executable, ["-C", folder.appendingPathComponent("janus.jcfg").path, "-F", folder.path,
                                                  "-p", folder.appendingPathComponent("janus.pid").path, "-o"],
                                 environment: ["LD_PRELOAD": shim.path])
    }

    /// The VideoRoom room configured at start.
    static let standingRoom = 1234

    var pidFile: URL { folder.appendingPathComponent("janus.pid") }
    var log: String { process.text }

    /// Stops Janus by the pid in its pid file, then removes the folder.
    func stop() {
        signal(SIGTERM)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Sends Janus `signal` by the pid in its pid file and waits up to 5 s for it to exit
    /// (SIGKILL: a crash, with no goodbye on any connection).
    func signal(_ signal: Int32) {
        if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, signal)
            _ = process.wait(timeout: 5)
        }
        process.stop()
    }

    /// Polls GET /janus/info until Janus answers (it starts within a second).
    static func waitUntilAnswering(_ server: JanusServer, loop: EventLoop) throws -> Bool {
        var request = HTTPRequest(method: .get, endpoint: Endpoint(scheme: .http, host: "127.0.0.1", port: server.port))
        request.target = "/janus/info"
        for _ in 0..<50 {
            var result: HTTPClientEvent?
            let host = HTTPExchangeStream(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: server.port), request: request,
                                          timeout: .seconds(2)) { result = $0 }
            _ = loop.run(until: { result != nil }, timeout: .seconds(3))
            withExtendedLifetime(host) {}
            if case .response(let response, _)? = result, response.status == 200 { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// A loopback TCP port nobody listens on right now.
    private static func freePort() throws -> UInt16 {
        let loop = try EventLoop()
        let listener = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        defer { listener.close() }
        return listener.localAddress.port
    }
}
