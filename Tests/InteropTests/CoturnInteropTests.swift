import EventLoop
import ICE
import RTCBase
import WebRTCTestKit
import XCTest

/// rtcswarm's TURN client (RFC 8656) against coturn on loopback, over real UDP sockets.
final class CoturnInteropTests: XCTestCase {
    func testTurnClientAllocatesBindsAChannelAndRelaysBothWaysThroughCoturn() throws {
        let cell = InteropRecorder.cell(self, target: "coturn", version: TargetVersion.coturn,
                                        role: "TURN server for rtcswarm's TURN client (allocate, permission, channel)", codec: "signaling")
        let loop = try EventLoop()
        let launched = loop.now()
        let coturn = try Coturn()
        defer { coturn.stop() }
        let ready = loop.now() - launched
        let server = SocketAddress(ipv4: 127, 0, 0, 1, port: coturn.port)
        let turn = try TurnClientDriver(loop: loop, server: server)
        defer { turn.close() }
        let peer = try UDPSocket(loop: loop, bindTo: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        defer { peer.close() }
        var atPeer: [(source: SocketAddress, payload: [UInt8])] = []
        peer.onDatagram = { bytes, source, _ in atPeer.append((source, Array(bytes))) }
        func waitFor(_ what: String, _ condition: () -> Bool) {
            XCTAssertTrue(loop.run(until: condition, timeout: .seconds(5)), "timed out waiting for \(what): \(turn.events)\n\(coturn.log.suffix(800))")
        }

        let started = loop.now()
        turn.perform { $0.allocate(now: $1) }
        waitFor("the allocation") { turn.client.state != .allocating }
        let allocated = loop.now() - started
        cell.measured(setupMs: allocated.milliseconds)
        guard case .allocated(let relayed, let mapped, let lifetime)? = turn.events.first else {
            return XCTFail("no allocation: \(turn.events)\n\(coturn.log.suffix(800))")
        }
        XCTAssertEqual(relayed.host, "127.0.0.1")
        XCTAssertTrue(Coturn.relayPorts.contains(relayed.port), "relay port \(relayed.port)")
        XCTAssertEqual(mapped, turn.socket.localAddress, "XOR-MAPPED-ADDRESS is our socket")
        XCTAssertEqual(lifetime, 600)

        turn.perform { $0.createPermission(for: peer.localAddress, now: $1) }
        waitFor("the permission") { turn.events.count == 2 }
        XCTAssertEqual(turn.events.last, .permissionCreated(peer.localAddress))

        // Before a channel: a Send indication out, a Data indication back (RFC 8656 11).
        let sent = try XCTUnwrap(turn.send(Array("via send indication".utf8), to: peer.localAddress))
        XCTAssertEqual(Array(sent.prefix(2)), [0x00, 0x16], "Send indication: method 0x006, class indication")
        waitFor("data at the peer") { atPeer.count == 1 }
        XCTAssertEqual(atPeer.first?.source, relayed, "the peer sees the relayed address")
        XCTAssertEqual(atPeer.first?.payload, Array("via send indication".utf8))
        peer.send(Array("reply one".utf8), to: relayed)
        peer.flush()  // now: sends made outside the loop otherwise wait for its next wake-up
        waitFor("a Data indication") { turn.received.count == 1 }
        XCTAssertEqual(turn.received.first?.peer, peer.localAddress)
        XCTAssertEqual(turn.received.first?.payload, Array("reply one".utf8))

        // With a channel: ChannelData both ways (RFC 8656 12).
        turn.perform { $0.bindChannel(to: peer.localAddress, now: $1) }
        waitFor("the channel") { turn.events.count == 3 }
        XCTAssertEqual(turn.events.last, .channelBound(peer: peer.localAddress, channel: 0x4000))
        let payload = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let framed = try XCTUnwrap(turn.send(payload, to: peer.localAddress))
        XCTAssertEqual(Array(framed.prefix(4)), [0x40, 0x00, 0x03, 0xE8], "ChannelData: channel 0x4000, length 1000")
        waitFor("channel data at the peer") { atPeer.count == 2 }
        XCTAssertEqual(atPeer.last?.source, relayed)
        XCTAssertEqual(atPeer.last?.payload, payload)
        peer.send(Array(payload.reversed()), to: relayed)
        peer.flush()
        waitFor("channel data back") { turn.received.count == 2 }
        XCTAssertEqual(turn.received.last?.peer, peer.localAddress)
        XCTAssertEqual(turn.received.last?.payload, Array(payload.reversed()))

        turn.perform { $0.deallocate(now: $1) }
        waitFor("the deallocation") { turn.client.state == .deallocated }
        XCTAssertEqual(turn.events.last, .deallocated)
        print("coturn: ready in \(ready.milliseconds) ms, allocation in \(allocated.milliseconds) ms, relayed \(relayed), mapped \(mapped.map(String.init(describing:)) ?? "-")")
    }
}
