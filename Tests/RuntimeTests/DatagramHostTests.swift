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
}
