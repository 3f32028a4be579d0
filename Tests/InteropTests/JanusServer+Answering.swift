import EventLoop
import WebRTCTestKit

extension JanusServer {
    /// Janus 1.1.2 on loopback, answering, with its WebSocket transport on when asked (skips
    /// when Janus is not installed); the caller stops it.
    static func startAnswering(webSocket: Bool = false) throws -> JanusServer {
        let executable = try ExternalTool.require("janus", installHint: "apt-get install janus")
        let janus = try JanusServer(executable: executable, shim: try LoopbackShim.library(), webSocket: webSocket)
        guard try waitUntilAnswering(janus, loop: try EventLoop()) else {
            janus.stop()
            throw JanusDidNotStart(log: String(janus.log.suffix(2000)))
        }
        return janus
    }
}

struct JanusDidNotStart: Error, CustomStringConvertible {
    var log: String
    var description: String { "Janus did not start: \(log)" }
}
