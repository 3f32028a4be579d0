import EventLoop
import RTCBase

/// Loopback TCP ports for the servers an interop test starts.
enum LoopbackPorts {
    /// `count` distinct ports nobody listens on right now. Every listener stays open until
    /// all are chosen: closed one by one, the kernel handed the same port out twice, and
    /// Janus's admin API shared a port with its WebSocket transport (seen in CI: the admin
    /// request answered by libwebsockets' 403 page).
    static func free(_ count: Int = 1) throws -> [UInt16] {
        let loop = try EventLoop()
        let listeners = try (0..<count).map { _ in try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0)) }
        defer { listeners.forEach { $0.close() } }
        return listeners.map(\.localAddress.port)
    }
}
