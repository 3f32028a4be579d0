import EventLoop
import RTCBase
@testable import Runtime
import XCTest

/// `DatagramHost`: what must not wait for the end of the loop's iteration.
final class DatagramHostTests: XCTestCase {
    /// Sends what it is given and tells one event after.
    private final class Scripted: DatagramMachine {
        var transmits: [Transmit]
        var told = false
        init(_ transmits: [Transmit]) { self.transmits = transmits }
        func handle(_ input: ReceivedDatagram, now: Instant) {}
        func handleTimeout(now: Instant) {}
        func pollTransmit() -> Transmit? { transmits.isEmpty ? nil : transmits.removeFirst() }
        func pollEvent() -> Bool? {
            defer { told = true }
            return told ? nil : true
        }
        func pollTimeout() -> Instant? { nil }
    }

    /// A DTLS flight or a STUN answer (RFC 7983 7) is on the wire before the events of the
    /// same wake-up are acted on (a peer's `connected` starts its media); SRTP waits in the
    /// batch for the end of the iteration.
    func testSetupDatagramsLeaveBeforeTheEventsAreActedOnAndMediaIsBatched() throws {
        let loop = try EventLoop()
        let address = SocketAddress(ipv4: 127, 0, 0, 1, port: 0)
        let receiver = try UDPSocket(loop: loop, bindTo: address)
        var sentWhenTold: [Int] = []
        for first: UInt8 in [22, 0, 0x80] {
            let host = try DatagramHost<Scripted>(loop: loop, bindTo: address, send: nil, receive: nil, runStart: loop.now(), seed: 1)
            host.onEvent = { _ in sentWhenTold.append(host.socket.stats.datagramsSent) }
            host.attach(Scripted([Transmit(destination: receiver.localAddress, payload: [first, 1, 2, 3])]))
        }
        XCTAssertEqual(sentWhenTold, [1, 1, 0], "DTLS and STUN at once, SRTP in the batch")
    }

    /// Records the time it is given with each datagram, and says whether it needs prompt
    /// wake-ups (a peer setting up does).
    private final class Timed: DatagramMachine {
        var times: [Instant] = []
        var needsPromptWakeups = true
        func handle(_ input: ReceivedDatagram, now: Instant) { times.append(now) }
        func handleTimeout(now: Instant) {}
        func pollTransmit() -> Transmit? { nil }
        func pollEvent() -> Never? { nil }
        func pollTimeout() -> Instant? { nil }
    }

    private let loopback = SocketAddress(ipv4: 127, 0, 0, 1, port: 0)

    func testAMachineThatNeedsPromptWakeupsHoldsTheLoopsUntilItNoLongerDoesOrCloses() throws {
        let loop = try EventLoop()
        let host = try DatagramHost<Timed>(loop: loop, bindTo: loopback, send: nil, receive: nil, runStart: loop.now(), seed: 1)
        let machine = Timed()
        host.attach(machine)
        XCTAssertEqual(loop.promptWakeupHolds, 1)
        machine.needsPromptWakeups = false
        host.drive()
        XCTAssertEqual(loop.promptWakeupHolds, 0)
        machine.needsPromptWakeups = true
        host.drive()
        host.drive()
        XCTAssertEqual(loop.promptWakeupHolds, 1, "one hold per host")
        host.close()
        XCTAssertEqual(loop.promptWakeupHolds, 0)
    }

    /// Read in a batch, a datagram is given the kernel's arrival time, not the read's; but
    /// never a time before one its host already used.
    func testADatagramReadLateIsGivenItsArrivalButNeverATimeBeforeOneAlreadyUsed() throws {
        let loop = try EventLoop()
        loop.wakeupBatching = .milliseconds(200)
        let host = try DatagramHost<Timed>(loop: loop, bindTo: loopback, send: nil, receive: nil, runStart: loop.now(), seed: 1)
        let machine = Timed()
        machine.needsPromptWakeups = false
        host.attach(machine)
        let sender = try UDPSocket(loop: loop, bindTo: loopback)
        func send() {
            sender.send([0x80, 0, 0, 1], to: host.socket.localAddress)
            sender.flush()
        }
        send()
        XCTAssertTrue(loop.run(until: { machine.times.count == 1 }, timeout: .seconds(5)))
        // The first socket to ask turns kernel timestamps on in deferred work (see
        // WakeupBatchingTests); this also leaves the last wake-up 20 ms behind.
        usleep(20_000)
        send()
        let sent = loop.now()
        XCTAssertTrue(loop.run(until: { machine.times.count == 2 }, timeout: .seconds(5)))
        let read = loop.now()
        XCTAssertLessThanOrEqual(machine.times[1].milliseconds(since: sent), 5, "its arrival")
        XCTAssertGreaterThan(read.milliseconds(since: machine.times[1]), 150, "not when it was read")

        send()
        usleep(20_000)
        let used = loop.now()
        host.drive()
        XCTAssertTrue(loop.run(until: { machine.times.count == 3 }, timeout: .seconds(5)))
        XCTAssertGreaterThanOrEqual(machine.times[2], used, "arrived 20 ms before a time the host used")
    }
}
