import Glibc
import EventLoop
import RoomServer
import RTCBase
import Runtime
import XCTest

/// The built-in room server on real sockets against a hostile client.
final class RoomServerHostTests: XCTestCase {
    /// A client that pipelines `/stats` requests and never reads the answers: the server
    /// drops it once it holds more than `maxQueuedBytes` unsent for it, counts it in
    /// `/stats`, and keeps serving. Before, every answer was kept (50,000 requests left the
    /// server 32 MB larger for good).
    func testAClientThatNeverReadsItsAnswersIsDroppedAndCounted() throws {
        let loop = try EventLoop()
        var configuration = RoomServerConfiguration()
        configuration.maxQueuedBytes = 256 * 1024
        let host = try RoomServerHost(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0), configuration: configuration)
        var client = try NeverReadingClient(port: host.address.port)
        defer { client.close() }
        let request = Array("GET /stats HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let dropped = loop.run(until: {
            client.push(Array([[UInt8]](repeating: request, count: 200).joined()))
            return host.stats.rejects["slow_reader"] == 1
        }, timeout: .seconds(30))
        XCTAssertTrue(dropped, "the server still holds the answers to \(client.sentBytes / request.count) requests")
        XCTAssertEqual(host.stats.connections, 0)
        // The server kept at most its limit beyond what the kernel took: far fewer answers
        // than were asked for went out before the drop.
        XCTAssertGreaterThan(client.sentBytes / request.count, 1_000)
    }
}

/// A TCP client that writes and never reads, with a small receive buffer so the server's
/// side fills quickly.
private struct NeverReadingClient {
    let fd: Int32
    private var backlog: [UInt8] = []
    private(set) var sentBytes = 0

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw XCTSkip("socket() failed: errno \(errno)") }
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 || errno == EINPROGRESS else { throw XCTSkip("connect() failed: errno \(errno)") }
    }

    /// Queues `bytes` and sends what the kernel takes now, without blocking.
    mutating func push(_ bytes: [UInt8]) {
        if backlog.count < 1 << 20 { backlog += bytes }
        while !backlog.isEmpty {
            let written = backlog.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            backlog.removeFirst(written)
            sentBytes += written
        }
    }

    func close() { Glibc.close(fd) }
}
