import Foundation
import Glibc
import EventLoop
import RoomServer
import RTCBase
import Runtime
import WebRTCTestKit
import XCTest

/// The built-in room server on real sockets against a hostile client.
final class RoomServerStreamTests: XCTestCase {
    /// A client that pipelines `/stats` requests and never reads the answers: the server
    /// drops it once it holds more than `maxQueuedBytes` unsent for it, counts it in
    /// `/stats`, and keeps serving. Before, every answer was kept (50,000 requests left the
    /// server 32 MB larger for good).
    func testAClientThatNeverReadsItsAnswersIsDroppedAndCounted() throws {
        let loop = try EventLoop()
        var configuration = RoomServerConfiguration()
        configuration.maxQueuedBytes = 256 * 1024
        let host = try RoomServerStream(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0), configuration: configuration)
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

/// `rtcswarm serve` at its file-descriptor limit (`ulimit -n 64`) with 100 bare
/// connections: what does not fit is refused at once (`descriptor_limit`), the bare ones
/// are closed after the handshake timeout (`http_timeout`), and `/stats` answers again.
/// Before, the server spun at 100 % CPU and kept the bare connections for 60 s.
final class RoomServerDescriptorLimitTests: XCTestCase {
    func testAtTheDescriptorLimitBareConnectionsAreShedAndStatsAnswersAgain() throws {
        let server = try ServeProcess(arguments: ["--handshake-timeout", "1"], descriptorLimit: 64)
        let port = server.port
        let bare = try (0..<100).map { _ in try NeverReadingClient(port: port) }
        defer { bare.forEach { $0.close() } }
        let cpuBefore = Self.cpuTicks(of: server.pid)
        let started = Date()
        var stats: JSONValue?
        while stats?["rejects"]?["http_timeout"] == nil, Date().timeIntervalSince(started) < 15 {
            stats = Self.getStats(port: port)
            if stats?["rejects"]?["http_timeout"] == nil { usleep(200_000) }
        }
        let answered = try XCTUnwrap(stats, "/stats never answered again")
        let cpu = Double(Self.cpuTicks(of: server.pid) - cpuBefore) / Double(sysconf(Int32(_SC_CLK_TCK)))
        print("descriptor limit: /stats answered after \(String(format: "%.1f", Date().timeIntervalSince(started))) s, "
              + "server CPU \(String(format: "%.2f", cpu)) s meanwhile; rejects \((answered["rejects"] ?? .null).serialized)")
        XCTAssertGreaterThan(answered["rejects"]?["descriptor_limit"]?.integerValue ?? 0, 0, "\(answered)")
        XCTAssertGreaterThan(answered["rejects"]?["http_timeout"]?.integerValue ?? 0, 0, "\(answered)")
    }

    /// utime + stime of a process, in clock ticks (proc(5)).
    static func cpuTicks(of pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: end)...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// One `GET /stats` on a fresh connection, or nil when the server does not answer in 1 s.
    static func getStats(port: UInt16) -> JSONValue? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard LoopbackPort.connect(fd, port: port) == 0 else { return nil }
        let request = Array("GET /stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response += buffer[0..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 200"), let body = text.components(separatedBy: "\r\n\r\n").dropFirst().first else { return nil }
        return try? JSONValue(parsing: body)
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
        let result = LoopbackPort.connect(fd, port: port)
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
