import EventLoop
import Foundation
import Net
import Runtime
import RTCBase
import WebRTCTestKit
import XCTest

/// A Janus 1.1 (Debian package) started for one test on 127.0.0.1 only: its
/// `JanusConfiguration` in a temporary folder, the HTTP transport on a free loopback port
/// (and, when asked, the WebSocket transport on another), the admin API on a further free
/// port, ICE on `lo` only with the loopback shim, a pid file, stopped by that pid.
final class JanusServer: Sendable {
    let port: UInt16
    let adminPort: UInt16
    /// The WebSocket transport's port (`janus-protocol`), when it is on.
    let webSocketPort: UInt16?
    /// Its `wss` port, when a certificate was given.
    let secureWebSocketPort: UInt16?
    let folder: URL
    let pidFile: URL
    private let process: ManagedProcess

    /// `webSocket` also turns on libjanus_websockets.so (`ws`, 127.0.0.1 only, admin
    /// WebSocket off); with `certificate` (PEM files) also `wss` on a port of its own.
    init(executable: URL, shim: URL, webSocket: Bool = false, certificate: (pem: URL, key: URL)? = nil) throws {
        let ports = try LoopbackPorts.free(4)
        let configuration = JanusConfiguration(
            folder: FileManager.default.temporaryDirectory.appendingPathComponent("rtcswarm-janus-\(UUID().uuidString)"),
            port: ports[0], adminPort: ports[1], webSocketPort: webSocket ? ports[2] : nil,
            secureWebSocketPort: webSocket && certificate != nil ? ports[3] : nil, certificate: certificate)
        try configuration.write()
        (folder, pidFile, port, adminPort) = (configuration.folder, configuration.pidFile, configuration.port, configuration.adminPort)
        (webSocketPort, secureWebSocketPort) = (configuration.webSocketPort, configuration.secureWebSocketPort)
        process = try ManagedProcess(executable, configuration.arguments, environment: ["LD_PRELOAD": shim.path])
    }

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
}
