@testable import EventLoop
import RTCBase
import XCTest

final class UDPSocketTests: XCTestCase {
    private let loopback = SocketAddress(ipv4: 127, 0, 0, 1, port: 0)

    /// What a receiving socket got, in arrival order.
    private final class Received { var datagrams: [[UInt8]] = [] }

    /// A loop with two sending sockets and a receiver that keeps what arrives; `bufferBytes`
    /// sizes the senders' send buffers and the receiver's receive buffer.
    private func twoSendersAndAReceiver(bufferBytes: Int? = nil) throws
        -> (loop: EventLoop, first: UDPSocket, second: UDPSocket, receiver: UDPSocket, received: Received)
    {
        let loop = try EventLoop()
        let first = try UDPSocket(loop: loop, bindTo: loopback, buffers: .init(sendBytes: bufferBytes))
        let second = try UDPSocket(loop: loop, bindTo: loopback, buffers: .init(sendBytes: bufferBytes))
        let receiver = try UDPSocket(loop: loop, bindTo: loopback, buffers: .init(receiveBytes: bufferBytes))
        let received = Received()
        receiver.onDatagram = { bytes, _, _ in received.datagrams.append(Array(bytes)) }
        return (loop, first, second, receiver, received)
    }

    func testTenThousandDatagramsArriveInOrderWithNoneLost() throws {
        let loop = try EventLoop()
        let sender = try UDPSocket(loop: loop, bindTo: loopback)
        let receiver = try UDPSocket(loop: loop, bindTo: loopback, buffers: .init(receiveBytes: 4 << 20))
        let total = 10_000
        var received: [UInt32] = []
        received.reserveCapacity(total)
        receiver.onDatagram = { bytes, from, _ in
            XCTAssertEqual(from, sender.localAddress)
            XCTAssertEqual(bytes.count, 200)
            received.append(UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3]))
        }
        // Keep at most 512 in flight so the receive buffer never overflows: loss here
        // would be the test's own doing, not the socket's.
        var next = 0
        var payload = [UInt8](repeating: 0xab, count: 200)
        func pump() {
            while next < total, next - received.count < 512 {
                payload[0] = UInt8(next >> 24); payload[1] = UInt8(truncatingIfNeeded: next >> 16)
                payload[2] = UInt8(truncatingIfNeeded: next >> 8); payload[3] = UInt8(truncatingIfNeeded: next)
                sender.send(payload, to: receiver.localAddress)
                next += 1
            }
            if next < total { loop.schedule(after: .microseconds(100), pump) }
        }
        pump()
        XCTAssertTrue(loop.run(until: { received.count == total }, timeout: .seconds(20)))
        XCTAssertEqual(received, (0..<UInt32(total)).map { $0 })
        XCTAssertEqual(sender.stats.datagramsSent, total)
        XCTAssertEqual(sender.stats.sendFailures, 0)
        XCTAssertEqual(receiver.stats.receiveBufferDrops, 0)
        XCTAssertLessThan(sender.stats.sendBatches, total / 4, "sends go out in batches")
        XCTAssertLessThan(receiver.stats.receiveBatches, total, "receives come in batches")
    }

    /// The sockets of a loop queue in its one set of send buffers: a socket's datagrams of
    /// one iteration leave in one sendmmsg at its end however other sockets' sends
    /// interleave with them (a publisher's audio and video frames), intact and in order.
    func testASocketsDatagramsOfAnIterationLeaveInOneCallHoweverSendsInterleave() throws {
        let (loop, player, publisher, receiver, received) = try twoSendersAndAReceiver()
        player.send([0, 0], to: receiver.localAddress)
        player.send([0, 1], to: receiver.localAddress)
        let frame = (0..<40).map { [1, UInt8($0)] + [UInt8](repeating: UInt8($0), count: 100 + $0) }
        for datagram in frame { publisher.send(datagram, to: receiver.localAddress) }
        player.send([0, 2], to: receiver.localAddress)
        XCTAssertEqual(player.stats.datagramsSent + publisher.stats.datagramsSent, 0, "nothing leaves before the iteration ends")
        XCTAssertTrue(loop.run(until: { received.datagrams.count == 43 }, timeout: .seconds(5)))
        XCTAssertEqual(received.datagrams.filter { $0.first == 0 }, [[0, 0], [0, 1], [0, 2]])
        XCTAssertEqual(received.datagrams.filter { $0.first == 1 }, frame)
        XCTAssertEqual([player.stats.sendBatches, publisher.stats.sendBatches], [1, 1])
        XCTAssertEqual([player.stats.datagramsSent, publisher.stats.datagramsSent], [3, 40])
    }

    /// When every send buffer of the loop is taken, what is queued leaves at once and the
    /// buffers serve again: the socket that filled them goes on queuing its next datagrams
    /// in a chain of their own.
    func testFullSendBuffersSendWhatIsQueuedAtOnce() throws {
        let (loop, first, second, receiver, received) = try twoSendersAndAReceiver(bufferBytes: 1 << 20)
        for index in 0..<200 { first.send([1, UInt8(index)], to: receiver.localAddress) }
        for index in 0..<100 { second.send([2, UInt8(index)], to: receiver.localAddress) }
        XCTAssertEqual([first.stats.datagramsSent, second.stats.datagramsSent], [200, 56],
                       "the 257th datagram found the 256 buffers taken")
        XCTAssertTrue(loop.run(until: { received.datagrams.count == 300 }, timeout: .seconds(5)))
        XCTAssertEqual(received.datagrams.filter { $0.first == 1 }, (0..<200).map { [1, UInt8($0)] })
        XCTAssertEqual(received.datagrams.filter { $0.first == 2 }, (0..<100).map { [2, UInt8($0)] })
        XCTAssertEqual([first.stats.datagramsSent, second.stats.datagramsSent], [200, 100])
        XCTAssertEqual(receiver.stats.receiveBufferDrops, 0)
    }

    /// A socket closed with datagrams queued sends them first, and another socket's
    /// datagrams queued after it are not lost with it.
    func testClosingASocketSendsItsQueueAndLeavesTheBatchToOthers() throws {
        let (loop, first, second, receiver, received) = try twoSendersAndAReceiver()
        first.send([1], to: receiver.localAddress)
        first.close()
        second.send([2], to: receiver.localAddress)
        first.send([3], to: receiver.localAddress)
        XCTAssertTrue(loop.run(until: { received.datagrams.count == 2 }, timeout: .seconds(5)))
        loop.run(until: { false }, timeout: .milliseconds(50))
        XCTAssertEqual(received.datagrams, [[1], [2]], "nothing is sent from a closed socket")
        XCTAssertEqual([first.stats.datagramsSent, second.stats.datagramsSent], [1, 1])
    }

    /// A datagram sent between steps of `run(until:)` leaves before the loop sleeps: the
    /// first step delivers it. It used to wait for the loop's next wake-up (a timer, other
    /// traffic, or the 1 s cap), which held Janus's data channel echoes for 0.2 to 1 s.
    func testADatagramSentBetweenStepsLeavesBeforeTheLoopSleeps() throws {
        let loop = try EventLoop()
        let sender = try UDPSocket(loop: loop, bindTo: loopback)
        let receiver = try UDPSocket(loop: loop, bindTo: loopback)
        var received = 0
        receiver.onDatagram = { _, _, _ in received += 1 }
        sender.send([1, 2, 3], to: receiver.localAddress)
        var steps = 0
        XCTAssertTrue(loop.run(until: { steps += 1; return received == 1 }, timeout: .seconds(5)))
        XCTAssertEqual(steps, 2, "one step of the loop sent and received it")
        XCTAssertEqual(sender.stats.datagramsSent, 1)
    }

    func testReceiveBufferOverflowIsCountedExactly() throws {
        let loop = try EventLoop()
        let sender = try UDPSocket(loop: loop, bindTo: loopback)
        // The smallest buffer the kernel grants (it doubles and floors the request).
        let receiver = try UDPSocket(loop: loop, bindTo: loopback, buffers: .init(receiveBytes: 1))
        var received = 0
        receiver.onDatagram = { _, _, _ in received += 1 }
        let total = 2_000
        let payload = [UInt8](repeating: 1, count: 1000)
        for _ in 0..<total { sender.send(payload, to: receiver.localAddress) }
        sender.flush()
        // Read everything that made it into the buffer.
        loop.run(until: { false }, timeout: .milliseconds(100))
        // The kernel stamps each queued datagram with the drop count at that moment, so
        // drops after the last queued datagram show up with the next one: send a probe.
        sender.send(payload, to: receiver.localAddress)
        let before = received
        XCTAssertTrue(loop.run(until: { received == before + 1 }, timeout: .seconds(5)))
        XCTAssertEqual(sender.stats.datagramsSent, total + 1)
        XCTAssertGreaterThan(receiver.stats.receiveBufferDrops, 0)
        XCTAssertEqual(received + receiver.stats.receiveBufferDrops, total + 1,
                       "every datagram either arrived or was counted as dropped")
    }

    func testOversizedDatagramIsSentButTruncatedOnesAreDroppedAndCounted() throws {
        let loop = try EventLoop()
        let sender = try UDPSocket(loop: loop, bindTo: loopback)
        let receiver = try UDPSocket(loop: loop, bindTo: loopback)
        var sizes: [Int] = []
        receiver.onDatagram = { bytes, _, _ in sizes.append(bytes.count) }
        sender.send([UInt8](repeating: 7, count: 5000), to: receiver.localAddress)
        sender.send([UInt8](repeating: 7, count: 100), to: receiver.localAddress)
        XCTAssertTrue(loop.run(until: { receiver.stats.datagramsReceived == 2 }, timeout: .seconds(5)))
        XCTAssertEqual(sender.stats.datagramsSent, 2)
        // 5000 bytes do not fit a 2048-byte receive slot: dropped, counted, never half-parsed.
        XCTAssertEqual(sizes, [100])
        XCTAssertEqual(receiver.stats.truncatedDrops, 1)
    }

    func testBufferSizesAreGrantedAndReported() throws {
        let loop = try EventLoop()
        let socket = try UDPSocket(loop: loop, bindTo: loopback, buffers: .init(receiveBytes: 65_536, sendBytes: 65_536))
        // Linux doubles the request for bookkeeping and caps it at rmem_max/wmem_max.
        XCTAssertGreaterThanOrEqual(socket.grantedBuffers.receiveBytes ?? 0, 65_536)
        XCTAssertGreaterThanOrEqual(socket.grantedBuffers.sendBytes ?? 0, 65_536)
        XCTAssertTrue(socket.localAddress.isLoopback)
        XCTAssertNotEqual(socket.localAddress.port, 0)
    }

    func testBindingATakenPortFailsWithErrno() throws {
        let loop = try EventLoop()
        let first = try UDPSocket(loop: loop, bindTo: loopback)
        XCTAssertThrowsError(try UDPSocket(loop: loop, bindTo: first.localAddress)) { error in
            let systemError = error as? SystemError
            XCTAssertEqual(systemError?.errno, 98, "EADDRINUSE")
            XCTAssertTrue(systemError?.description.contains("bind(127.0.0.1:") ?? false)
        }
    }
}
