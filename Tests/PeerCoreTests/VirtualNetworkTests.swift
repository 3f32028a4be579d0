import Impairment
import RTCBase
import WebRTCTestKit
import XCTest

/// A node that answers every datagram with the same bytes after `hold`.
final class EchoNode: DatagramMachine {
    typealias Event = Never

    let hold: Duration
    var received: [(bytes: [UInt8], at: Instant)] = []
    private var pending: [(Transmit, Instant)] = []
    private var ready: [Transmit] = []

    init(hold: Duration) { self.hold = hold }

    func handle(_ input: ReceivedDatagram, now: Instant) {
        received.append((input.payload, now))
        pending.append((Transmit(destination: input.source, payload: input.payload), now + hold))
    }

    func handleTimeout(now: Instant) {
        ready += pending.filter { $0.1 <= now }.map(\.0)
        pending.removeAll { $0.1 <= now }
    }

    func pollTransmit() -> Transmit? { ready.isEmpty ? nil : ready.removeFirst() }
    func pollTimeout() -> Instant? { pending.map(\.1).min() }
}

final class VirtualNetworkTests: XCTestCase {
    let a = SocketAddress(ipv4: 10, 0, 0, 1, port: 1)
    let b = SocketAddress(ipv4: 10, 0, 0, 2, port: 2)

    func testDelayAndNodeTimersAddUpInVirtualTime() {
        var profile = ImpairmentProfile()
        profile.delayMs = 15
        let network = VirtualNetwork(start: .zero, defaultProfile: profile)
        let left = EchoNode(hold: .milliseconds(100))
        let right = EchoNode(hold: .milliseconds(5))
        network.attach(left, at: [a])
        network.attach(right, at: [b])
        right.handle(ReceivedDatagram(payload: [1, 2, 3], source: a, destination: b), now: .zero)  // right echoes to a at 5 ms
        network.progress(until: Instant(nanoseconds: 1_000_000_000))
        // 5 ms hold + 15 ms to a; a echoes 100 ms later, 15 ms back to b: a 135 ms cycle.
        XCTAssertEqual(left.received.map(\.at.nanoseconds), (0..<8).map { 20_000_000 + $0 * 135_000_000 })
        XCTAssertEqual(right.received.dropFirst().map(\.at.nanoseconds), (1..<8).map { $0 * 135_000_000 })
        XCTAssertEqual(network.now, Instant(nanoseconds: 1_000_000_000))
        XCTAssertEqual(network.delivered, 15)
    }

    func testLossOnOneDirectionIsSeededAndCounted() {
        func run(seed: UInt64) -> (Int, ImpairmentCounters?) {
            let network = VirtualNetwork(start: .zero)
            let sink = EchoNode(hold: .seconds(1000))
            network.attach(sink, at: [b])
            var lossy = ImpairmentProfile()
            lossy.lossPct = 20
            network.impair(from: a, to: b, profile: lossy, seed: seed)
            let sender = EchoNode(hold: .zero)
            network.attach(sender, at: [a])
            for index in 0..<1_000 {
                sender.handle(ReceivedDatagram(payload: [UInt8(truncatingIfNeeded: index)], source: b, destination: a), now: network.now)
                network.progress(for: .milliseconds(1))
            }
            return (sink.received.count, network.counters(from: a, to: b))
        }
        let (received, counters) = run(seed: 5)
        XCTAssertEqual(received + (counters?.droppedByLoss ?? 0), 1_000)
        XCTAssertEqual(Double(received), 800, accuracy: 40)
        XCTAssertEqual(run(seed: 5).0, received)
    }

    func testDatagramsToNobodyAreCountedUndeliverable() {
        let network = VirtualNetwork(start: .zero)
        let node = EchoNode(hold: .zero)
        network.attach(node, at: [a])
        node.handle(ReceivedDatagram(payload: [9], source: b, destination: a), now: .zero)
        network.progress(for: .milliseconds(1))
        XCTAssertEqual(network.undeliverable, 1)
        XCTAssertEqual(network.delivered, 0)
    }
}
