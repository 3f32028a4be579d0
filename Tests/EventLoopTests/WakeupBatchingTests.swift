import EventLoop
import RTCBase
import XCTest

/// `EventLoop.wakeupBatching`: readiness piles up for the window after a wake-up, timers
/// still fire when due, a prompt-wake-up hold reads at once, and every datagram keeps the
/// kernel's arrival time however late it is read.
final class WakeupBatchingTests: XCTestCase {
    private let loopback = SocketAddress(ipv4: 127, 0, 0, 1, port: 0)

    /// Two sockets whose receiver records what it got, when it read it and when it arrived.
    private final class Link {
        let sender: UDPSocket
        let receiver: UDPSocket
        var reads: [(arrival: Instant, read: Instant)] = []

        init(loop: EventLoop, address: SocketAddress) throws {
            sender = try UDPSocket(loop: loop, bindTo: address)
            receiver = try UDPSocket(loop: loop, bindTo: address)
            receiver.onDatagram = { [unowned self] _, _, arrival in self.reads.append((arrival, loop.now())) }
        }

        func send() {
            sender.send([1, 2, 3], to: receiver.localAddress)
            sender.flush()
        }
    }

    func testADatagramArrivingAfterAWakeUpIsReadAtTheWindowsEndStampedWithItsArrival() throws {
        let loop = try EventLoop()
        let link = try Link(loop: loop, address: loopback)
        loop.wakeupBatching = .milliseconds(200)
        link.send()
        XCTAssertTrue(loop.run(until: { link.reads.count == 1 }, timeout: .seconds(10)))
        let firstRead = try XCTUnwrap(link.reads.first).read
        // The first socket on the machine to ask for timestamps turns them on in deferred
        // kernel work (net_enable_timestamp); until it ran, datagrams are stamped when read.
        usleep(20_000)
        link.send()
        let sent = loop.now()
        XCTAssertTrue(loop.run(until: { link.reads.count == 2 }, timeout: .seconds(10)))
        let second = link.reads[1]
        XCTAssertGreaterThanOrEqual(second.read.milliseconds(since: firstRead), 199, "read once the window after the last wake-up ended")
        XCTAssertLessThanOrEqual(second.arrival.milliseconds(since: sent), 5, "the kernel's arrival time")
        XCTAssertGreaterThan(second.read.milliseconds(since: second.arrival), 150, "not the time it was read")
        XCTAssertGreaterThanOrEqual(second.arrival, firstRead)
    }

    func testAHoldReadsAtOnceAndItsReleaseBatchesAgain() throws {
        let loop = try EventLoop()
        let link = try Link(loop: loop, address: loopback)
        loop.wakeupBatching = .seconds(60)
        loop.holdPromptWakeups()
        for expected in 1...3 {
            link.send()
            XCTAssertTrue(loop.run(until: { link.reads.count == expected }, timeout: .seconds(10)), "a 60 s window would have held it")
        }
        loop.releasePromptWakeups()
        XCTAssertEqual(loop.promptWakeupHolds, 0)
        link.send()
        let sent = loop.now()
        // The window outlasts the caller's timeout, which ends the wait instead.
        XCTAssertTrue(loop.run(until: { link.reads.count == 4 }, timeout: .milliseconds(400)))
        XCTAssertGreaterThanOrEqual(link.reads[3].read.milliseconds(since: sent), 390, "batched again once released")
    }

    func testATimerDueInsideTheWindowFiresWhenDueAndReadsWhatPiledUp() throws {
        let loop = try EventLoop()
        let link = try Link(loop: loop, address: loopback)
        loop.wakeupBatching = .seconds(60)
        link.send()
        XCTAssertTrue(loop.run(until: { link.reads.count == 1 }, timeout: .seconds(10)))
        link.send()
        var fired: Instant?
        let due = loop.now() + .milliseconds(50)
        loop.schedule(at: due) { fired = loop.now() }
        XCTAssertTrue(loop.run(until: { fired != nil }, timeout: .seconds(10)), "the window ends at the next timer")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(fired), due)
        XCTAssertEqual(link.reads.count, 2, "the datagram that piled up is read on the timer's wake-up")
        XCTAssertGreaterThanOrEqual(link.reads[1].read, due)
    }

    /// A TCP connection holds prompt wake-ups while it is open: signaling and room messages
    /// are timed when read.
    func testATcpConnectionHoldsPromptWakeupsUntilItCloses() throws {
        let loop = try EventLoop()
        let listener = try TCPListener(loop: loop, address: loopback)
        var accepted: TCPConnection?
        listener.onAccept = { accepted = $0 }
        let client = try TCPConnection.connect(loop: loop, to: listener.localAddress)
        XCTAssertTrue(loop.run(until: { accepted != nil }, timeout: .seconds(5)))
        XCTAssertEqual(loop.promptWakeupHolds, 2, "both ends")
        client.close()
        accepted?.close()
        XCTAssertEqual(loop.promptWakeupHolds, 0)
    }
}
