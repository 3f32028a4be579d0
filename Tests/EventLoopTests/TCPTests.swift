import Glibc
import EventLoop
import RTCBase
import XCTest

final class TCPTests: XCTestCase {
    func testEchoOfOneMegabyteArrivesIntact() throws {
        let loop = try EventLoop()
        let listener = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        var serverSide: TCPConnection?
        listener.onAccept = { connection in
            serverSide = connection
            connection.onRead = { connection.write($0) }
        }
        let client = try TCPConnection.connect(loop: loop, to: listener.localAddress)
        var connected: SystemError?? = .none
        client.onConnect = { connected = .some($0) }
        var echoed: [UInt8] = []
        client.onRead = { echoed.append(contentsOf: $0) }
        // More than a socket buffer holds, so partial writes and EPOLLOUT are exercised.
        var generator = SeededGenerator(seed: 3)
        let message = (0..<1_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        client.write(message)
        XCTAssertTrue(loop.run(until: { echoed.count == message.count }, timeout: .seconds(20)))
        XCTAssertEqual(connected, .some(nil))
        XCTAssertEqual(echoed, message)
        XCTAssertEqual(client.bytesWritten, message.count)
        XCTAssertEqual(serverSide?.bytesRead, message.count)
        XCTAssertEqual(serverSide?.remoteAddress, try? SocketAddress(ipv4: 127, 0, 0, 1, port: XCTUnwrap(serverSide?.remoteAddress.port)))
    }

    func testPeerCloseIsReportedAsOrderlyEnd() throws {
        let loop = try EventLoop()
        let listener = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        listener.onAccept = { connection in
            connection.write(Array("bye".utf8))
            connection.closeAfterWriting()
        }
        let client = try TCPConnection.connect(loop: loop, to: listener.localAddress)
        var received: [UInt8] = []
        var closed: SystemError?? = .none
        client.onRead = { received += $0 }
        client.onClose = { closed = .some($0) }
        XCTAssertTrue(loop.run(until: { closed != nil }, timeout: .seconds(5)))
        XCTAssertEqual(String(decoding: received, as: UTF8.self), "bye")
        XCTAssertEqual(closed, .some(nil))
        XCTAssertEqual(client.state, .closed)
    }

    func testConnectToClosedPortFailsWithConnectionRefused() throws {
        let loop = try EventLoop()
        // Take a free port, then close it so that nothing listens there.
        let port = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        let address = port.localAddress
        port.close()
        let client = try TCPConnection.connect(loop: loop, to: address)
        var result: SystemError?? = .none
        client.onConnect = { result = .some($0) }
        XCTAssertTrue(loop.run(until: { result != nil }, timeout: .seconds(5)))
        XCTAssertEqual(result??.errno, 111, "ECONNREFUSED")
        XCTAssertEqual(client.state, .closed)
    }
}

final class TCPIdleTests: XCTestCase {
    /// A connected, idle socket must not keep the loop spinning on EPOLLOUT.
    func testIdleConnectionLetsTheLoopSleep() throws {
        let loop = try EventLoop()
        let listener = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        var accepted: [TCPConnection] = []
        listener.onAccept = { accepted.append($0) }
        let client = try TCPConnection.connect(loop: loop, to: listener.localAddress)
        var connected = false
        client.onConnect = { _ in connected = true }
        XCTAssertTrue(loop.run(until: { connected && !accepted.isEmpty }, timeout: .seconds(5)))
        let cpuBefore = cpuSeconds()
        loop.run(until: { false }, timeout: .milliseconds(300))
        XCTAssertLessThan(cpuSeconds() - cpuBefore, 0.1, "300 ms idle must cost almost no CPU")
    }

    private func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
