import EventLoop
import Foundation
import Net
import Runtime
import Signaling
import WebRTCTestKit
import XCTest

/// How the Janus adapter reaches Janus in a test: HTTP with a long poll, or one
/// WebSocket (`janus-protocol`), plain or over TLS.
enum JanusTransport: String {
    case http = "HTTP"
    case webSocket = "ws://"
    case secureWebSocket = "wss://"
}

/// A Janus 1.1.2 (Debian) started for one test on 127.0.0.1 with the transport it needs,
/// and the call setups the test drives through it, whatever the transport.
final class JanusUnderTest {
    let janus: JanusServer
    let loop: EventLoop
    let transport: JanusTransport
    private let server: Endpoint
    private let tls: TLSClientContext?
    private let certificateFolder: URL?

    init(_ transport: JanusTransport) throws {
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        self.transport = transport
        var certificate: (pem: URL, key: URL)?
        if transport == .secureWebSocket {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rtcswarm-wss-\(UUID().uuidString)")
            certificate = try Self.makeCertificate(in: folder)
            certificateFolder = folder
        } else {
            certificateFolder = nil
        }
        janus = try JanusServer(executable: executable, shim: try LoopbackShim.library(), webSocket: transport != .http,
                                certificate: certificate)
        loop = try EventLoop()
        let ports: [JanusTransport: UInt16?] = [.http: janus.port, .webSocket: janus.webSocketPort, .secureWebSocket: janus.secureWebSocketPort]
        guard try JanusServer.waitUntilAnswering(janus, loop: loop), let port = ports[transport] ?? nil else {
            janus.stop()
            XCTFail("Janus did not start: \(janus.log.suffix(2000))")
            throw CancellationError()
        }
        switch transport {
        case .http: server = Endpoint(scheme: .http, host: "127.0.0.1", port: port, path: "/janus")
        case .webSocket: server = Endpoint(scheme: .ws, host: "127.0.0.1", port: port, path: "/")
        case .secureWebSocket: server = Endpoint(scheme: .wss, host: "127.0.0.1", port: port, path: "/")
        }
        tls = try certificate.map { try TLSClientContext(configuration: TLSConfiguration(additionalTrustedPEM: try String(contentsOf: $0.pem, encoding: .utf8))) }
    }

    func stop() {
        janus.stop()
        if let certificateFolder { try? FileManager.default.removeItem(at: certificateFolder) }
    }

    /// A call setup for `plugin` over this transport, not started yet.
    func call(_ plugin: JanusPlugin, offer: String?, seed: UInt64) -> JanusTestCall {
        switch transport {
        case .http:
            let host = StreamHost(loop: loop, machine: HTTPSignaling(JanusCallSetup(server: server, plugin: plugin, offer: offer, seed: seed)))
            return JanusTestCall(driver: host) { (host.machine.setup.sessionID, host.machine.setup.roomID, host.machine.setup.feedID) }
        case .webSocket, .secureWebSocket:
            let host = StreamHost(loop: loop, machine: SingleConnection(JanusWebSocketCallSetup(server: server, plugin: plugin, offer: offer, seed: seed)),
                                          tls: tls)
            return JanusTestCall(driver: host) { (host.machine.machine.sessionID, host.machine.machine.roomID, host.machine.machine.feedID) }
        }
    }

    /// A certificate for 127.0.0.1 made with Debian's openssl, for Janus's wss listener.
    private static func makeCertificate(in folder: URL) throws -> (pem: URL, key: URL) {
        let openssl = try ExternalTool.require("openssl", installHint: "apt-get install openssl")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pem = folder.appendingPathComponent("cert.pem")
        let key = folder.appendingPathComponent("key.pem")
        let made = try ExternalTool.run(openssl, ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                  "-keyout", key.path, "-out", pem.path, "-days", "1", "-subj", "/CN=127.0.0.1",
                                                  "-addext", "subjectAltName=IP:127.0.0.1"])
        XCTAssertEqual(made.status, 0, made.output)
        return (pem, key)
    }
}

/// One call setup as the tests drive it, and the ids Janus gave it.
final class JanusTestCall {
    let driver: CallSetupDriver
    private let ids: () -> (session: Int64?, room: Int64?, feed: Int64?)

    init(driver: CallSetupDriver, ids: @escaping () -> (session: Int64?, room: Int64?, feed: Int64?)) {
        self.driver = driver
        self.ids = ids
    }

    var sessionID: Int64? { ids().session }
    var roomID: Int64? { ids().room }
    var feedID: Int64? { ids().feed }
}
