import RTCBase
import Signaling
import XCTest

/// The tcp-p2p call channel as a machine, fed by hand: lines split across reads, the
/// first connection kept and the next turned away, refused connects retried a bounded
/// number of times, and lines that are not signals counted and dropped.
final class TCPCallChannelTests: XCTestCase {
    private let start = Instant(nanoseconds: 1_000_000_000)
    private let destination = StreamDestination(host: "127.0.0.1", port: 7000, secure: false)

    private func outputs(_ channel: inout TCPCallChannel) -> [StreamOutput] {
        var all: [StreamOutput] = []
        while let output = channel.pollTransmit() { all.append(output) }
        return all
    }

    private func events(_ channel: inout TCPCallChannel) -> [CallChannelEvent] {
        var all: [CallChannelEvent] = []
        while let event = channel.pollEvent() { all.append(event) }
        return all
    }

    func testTheListenerOffersToTheFirstConnectionAndTurnsTheNextAway() {
        var channel = TCPCallChannel(side: .listening)
        XCTAssertEqual(outputs(&channel), [], "a listener connects nowhere")
        channel.handle(.accepted(-1, from: "127.0.0.1"), now: start)
        XCTAssertEqual(events(&channel), [.connected, .joined, .partnerArrived])
        channel.handle(.accepted(-2, from: "127.0.0.1"), now: start)
        channel.send(.offer("v=0\r\n"), now: start)
        XCTAssertEqual(outputs(&channel), [.abort(-2), .write(-1, Array("{\"type\":\"offer\",\"sdp\":\"v=0\\r\\n\"}\n".utf8))])
    }

    func testLinesSplitAcrossReadsBecomeSignalsAndGarbageIsCounted() {
        var channel = TCPCallChannel(side: .connecting(destination))
        XCTAssertEqual(outputs(&channel), [.connect(1, destination)])
        channel.handle(.connected(1), now: start)
        let text = "{\"type\":\"answer\",\"sdp\":\"v=0\"}\r\nnot json\n{\"type\":\"candidate\",\"label\":1,\"id\":\"1\",\"candidate\":\"candidate:1 1 udp 1 127.0.0.1 9 typ host\"}\n{\"type\":\"bye\"}\n"
        let bytes = Array(text.utf8)
        channel.handle(.data(1, Array(bytes[..<10])), now: start)
        channel.handle(.data(1, Array(bytes[10...])), now: start)
        XCTAssertEqual(events(&channel), [
            .connected, .joined, .signal(.answer("v=0")),
            .signal(.candidate(label: 1, mid: "1", candidate: "candidate:1 1 udp 1 127.0.0.1 9 typ host")), .partnerLeft,
        ])
        XCTAssertEqual(channel.unreadableLines, 1)
    }

    func testARefusedConnectIsRetriedThenGivenUpWithTheReason() {
        var channel = TCPCallChannel(side: .connecting(destination))
        var now = start
        for attempt in 1...TCPCallChannel.maxConnectAttempts {
            XCTAssertEqual(outputs(&channel), [.connect(attempt, destination)])
            channel.handle(.failed(attempt, reason: "cannot connect to 127.0.0.1:7000: Connection refused"), now: now)
            guard let due = channel.pollTimeout() else { break }
            XCTAssertEqual(due, now + TCPCallChannel.retryInterval)
            now = due
            channel.handleTimeout(now: now)
        }
        XCTAssertNil(channel.pollTimeout())
        XCTAssertEqual(events(&channel), [.closed(reason: "cannot connect to 127.0.0.1:7000: Connection refused (after 100 attempts)")])
    }

    func testAnEndlessLineClosesTheCallInsteadOfGrowing() {
        var channel = TCPCallChannel(side: .listening)
        channel.handle(.accepted(-1, from: "127.0.0.1"), now: start)
        _ = events(&channel)
        channel.handle(.data(-1, [UInt8](repeating: UInt8(ascii: "x"), count: TCPCallChannel.maxLineBytes + 1)), now: start)
        XCTAssertEqual(outputs(&channel), [.abort(-1)])
        XCTAssertEqual(events(&channel), [.closed(reason: "the other side sent a line of over 1048576 bytes")])
    }

    func testEverySignalSurvivesItsJSON() {
        let signals: [P2PSignal] = [
            .offer("v=0\r\n"), .answer("v=0\r\n"), .candidate(label: 2, mid: "a", candidate: "candidate:x"), .bye,
            .stop(drainMs: 1500), .stats(.object(["fps": 30])), .error("no camera"),
        ]
        for signal in signals { XCTAssertEqual(P2PSignal(signal.json), signal) }
        XCTAssertNil(P2PSignal(.object(["type": "offer"])), "an offer without its sdp")
        XCTAssertNil(P2PSignal(.object(["type": "dance"])))
    }
}
