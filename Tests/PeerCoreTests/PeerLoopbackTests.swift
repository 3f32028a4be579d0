import EventLoop
import PeerCore
import RTCBase
import XCTest

/// Drives one `Peer` from a real UDP socket on an `EventLoop`: datagrams in, transmits
/// out, one timer at `pollTimeout()`.
final class LoopbackDriver {
    let loop: EventLoop
    let socket: UDPSocket
    var peer: Peer?
    var log = EventLog()
    private var timer: TimerID?

    init(loop: EventLoop) throws {
        self.loop = loop
        socket = try UDPSocket(loop: loop, bindTo: SocketAddress("127.0.0.1:0")!)
    }

    func attach(_ peer: Peer) {
        self.peer = peer
        socket.onDatagram = { [unowned self] bytes, source, _ in
            self.peer?.handle(borrowed: bytes, from: source, to: socket.localAddress, now: loop.now())
            pump()
        }
        pump()
    }

    func pump() {
        guard let peer else { return }
        while let transmit = peer.pollTransmit() { socket.send(transmit.payload, to: transmit.destination) }
        log.drain(peer)
        if let timer { loop.cancel(timer) }
        timer = peer.pollTimeout().map { deadline in
            loop.schedule(at: deadline) { [unowned self] in
                self.timer = nil
                peer.handleTimeout(now: loop.now())
                pump()
            }
        }
    }
}

final class PeerLoopbackTests: XCTestCase {
    func testTwoPeersOverRealLoopbackUdpConnectAndDeliverVp8Frames() throws {
        let loop = try EventLoop()
        let offering = try LoopbackDriver(loop: loop)
        let answering = try LoopbackDriver(loop: loop)
        let now = loop.now()
        let offerer = try Peer(
            configuration: PeerConfiguration(role: .offerer, transceivers: [.video()], localAddresses: [offering.socket.localAddress], seed: 1),
            now: now)
        let answerer = try Peer(
            configuration: PeerConfiguration(role: .answerer, transceivers: [.video()], localAddresses: [answering.socket.localAddress], seed: 2),
            now: now)
        try answerer.setRemoteOffer(try offerer.createOffer(now: now), now: now)
        try offerer.setRemoteAnswer(try answerer.createAnswer(now: now), now: now)
        offering.attach(offerer)
        answering.attach(answerer)
        XCTAssertTrue(loop.run(until: { offering.log.connected && answering.log.connected }, timeout: .seconds(5)))

        let frames = try MediaFixtures.video(.vp8, count: 30)
        for frame in frames { XCTAssertTrue(offerer.send(frame, mid: "1", now: loop.now())) }
        offering.pump()
        XCTAssertTrue(loop.run(until: { answering.log.frames["1"]?.count == frames.count }, timeout: .seconds(5)))
        XCTAssertEqual(answering.log.frames["1"]?.map(\.data), frames.map(\.bytes))
        let setup = try XCTUnwrap(offerer.timeline.setupMs)
        XCTAssertLessThan(setup, 2_000)
        XCTAssertEqual(offerer.stats(now: loop.now()).ice.selectedLocalType, .host)
        print("loopback: setup \(setup) ms, ice \(offerer.timeline.iceMs ?? -1) ms, dtls \(offerer.timeline.dtlsMs ?? -1) ms")
        offerer.close(now: loop.now())
        offering.pump()
        XCTAssertTrue(loop.run(until: { answering.log.closed }, timeout: .seconds(2)))
    }
}
