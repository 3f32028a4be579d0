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

    /// At the file-descriptor limit every waiting connection is accepted with the spare
    /// descriptor and closed at once, and the listener then sleeps: before, accept failed
    /// with EMFILE, the connection stayed in the backlog and the loop woke for it forever.
    func testAtTheDescriptorLimitWaitingConnectionsAreClosedAndTheListenerDoesNotSpin() throws {
        let loop = try EventLoop()
        let listener = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        var accepted = 0
        listener.onAccept = { _ in accepted += 1 }
        var refusals = 0
        listener.onRefused = { refusals += 1 }
        let clients = try (0..<5).map { _ in try TCPConnection.connect(loop: loop, to: listener.localAddress) }
        var ended = 0
        for client in clients { client.onClose = { _ in ended += 1 } }

        // Every descriptor number below the lowest free one is taken: make that the limit.
        let lowestFree = fcntl(0, F_DUPFD, 0)
        Glibc.close(lowestFree)
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved)
        var tight = saved
        tight.rlim_cur = rlim_t(lowestFree)
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &tight), 0)
        defer { setrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved) }

        XCTAssertTrue(loop.run(until: { ended == clients.count }, timeout: .seconds(5)), "\(ended) of \(clients.count) saw their connection end")
        XCTAssertEqual(accepted, 0)
        XCTAssertEqual(refusals, clients.count)
        XCTAssertEqual(listener.refusedAtDescriptorLimit, clients.count)
        // Nothing is waiting now: a listener that still woke up would count more errors.
        let errors = listener.acceptErrors
        XCTAssertLessThanOrEqual(errors, 2 * clients.count)
        loop.run(until: { false }, timeout: .milliseconds(300))
        XCTAssertEqual(listener.acceptErrors, errors, "the listener kept waking with nothing to accept")
    }

    /// `bufferedWrites` counts the writes still (partly) unsent, and reaches 0 once the
    /// peer has read everything.
    func testBufferedWritesCountTheWritesTheKernelHasNotTakenYet() throws {
        let loop = try EventLoop()
        let listener = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        var serverSide: TCPConnection?
        listener.onAccept = { serverSide = $0 }
        let client = try TCPConnection.connect(loop: loop, to: listener.localAddress)
        var received = 0
        client.onRead = { received += $0.count }
        XCTAssertTrue(loop.run(until: { serverSide != nil }, timeout: .seconds(5)))
        let server = try XCTUnwrap(serverSide)
        for _ in 0..<200 { server.write([UInt8](repeating: 7, count: 256 * 1024)) }
        XCTAssertGreaterThan(server.bufferedWrites, 100, "50 MB cannot all sit in the kernel's buffers")
        XCTAssertGreaterThan(server.bufferedBytes, (server.bufferedWrites - 1) * 256 * 1024)
        XCTAssertTrue(loop.run(until: { received == 200 * 256 * 1024 }, timeout: .seconds(20)))
        XCTAssertEqual(server.bufferedWrites, 0)
        XCTAssertEqual(server.bufferedBytes, 0)
    }
}
