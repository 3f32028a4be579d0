import ICE
import RTCBase
import STUN
import XCTest

final class TurnClientTests: XCTestCase {
    let serverAddress = SocketAddress("127.0.0.1:3478")!
    let clientAddress = SocketAddress("127.0.0.1:5000")!
    let peerAddress = SocketAddress("127.0.0.1:7000")!

    func makeNetwork(password: String = "test") -> VirtualNetwork {
        var network = VirtualNetwork()
        network.attach(TurnClientNode(client: TurnClient(server: serverAddress, local: clientAddress, username: "test", password: password)),
                       at: [clientAddress])
        let server = ScriptedTurnServer(address: serverAddress)
        network.attach(server, at: [serverAddress] + server.relayAddresses)
        network.attach(EchoPeer(), at: [peerAddress])
        return network
    }

    func client(_ network: VirtualNetwork) -> TurnClientNode { network.nodes[0].endpoint as! TurnClientNode }
    func server(_ network: VirtualNetwork) -> ScriptedTurnServer { network.nodes[1].endpoint as! ScriptedTurnServer }

    func change(_ network: inout VirtualNetwork, _ body: (inout TurnClient, Instant) -> Void) {
        var node = client(network)
        body(&node.client, network.now)
        node.collect()
        network.nodes[0].endpoint = node
        network.flush()
    }

    /// Wraps `payload` for the echo peer and puts it on the network.
    func send(_ payload: [UInt8], through network: inout VirtualNetwork) -> Transmit? {
        var node = client(network)
        let transmit = node.client.wrap(payload, for: peerAddress)
        network.nodes[0].endpoint = node
        if let transmit { network.inFlight.append(.init(deliverAt: network.now, transmit: transmit, sequence: 0)) }
        return transmit
    }

    func testAllocatesAfterTheChallengeAndRelaysDataBothWays() throws {
        var network = makeNetwork()
        change(&network) { client, now in client.allocate(now: now) }
        network.run(until: IcePairSetup.seconds(1))
        let relayed = SocketAddress("127.0.0.1:49160")!
        XCTAssertEqual(server(network).log.map(\.entry).prefix(2), ["Allocate 401", "Allocate \(relayed)"])
        XCTAssertEqual(client(network).client.state, .allocated)
        XCTAssertEqual(client(network).events.first?.event, .allocated(relayed: relayed, mapped: clientAddress, lifetime: 600))
        // Challenge (20 ms) then the authenticated Allocate (20 ms).
        XCTAssertEqual(client(network).events.first?.at, IcePairSetup.seconds(0.04))

        // Before a channel: permission, then a Send indication out and a Data indication back.
        change(&network) { client, now in client.createPermission(for: self.peerAddress, now: now) }
        network.run(until: IcePairSetup.seconds(2))
        XCTAssertTrue(client(network).events.contains { $0.event == .permissionCreated(self.peerAddress) })
        XCTAssertNotNil(send(Array("hello".utf8), through: &network))
        network.run(until: IcePairSetup.seconds(3))
        XCTAssertEqual((network.nodes[2].endpoint as? EchoPeer)?.received, [Array("hello".utf8)])
        XCTAssertEqual(client(network).received.last?.payload, Array("hello".utf8))
        XCTAssertEqual(client(network).received.last?.peer, peerAddress)
        XCTAssertEqual(server(network).entries("Send").count, 1)
        XCTAssertEqual(server(network).entries("Data").count, 1)

        // With a channel: ChannelData both ways.
        change(&network) { client, now in client.bindChannel(to: self.peerAddress, now: now) }
        network.run(until: IcePairSetup.seconds(4))
        XCTAssertTrue(client(network).events.contains { $0.event == .channelBound(peer: self.peerAddress, channel: 0x4000) })
        let frame = try XCTUnwrap(send([1, 2, 3], through: &network))
        XCTAssertEqual(Array(frame.payload.prefix(4)), [0x40, 0x00, 0x00, 0x03])  // channel 0x4000, length 3
        network.run(until: IcePairSetup.seconds(5))
        XCTAssertEqual(client(network).received.last?.payload, [1, 2, 3])
        XCTAssertEqual(server(network).entries("ChannelData to").count, 1)
        XCTAssertEqual(server(network).entries("ChannelData from").count, 1)
    }

    func testRefreshesBeforeLifetimeEndsAndFollowsStaleNonce() throws {
        var network = makeNetwork()
        change(&network) { client, now in
            client.allocate(now: now)
            client.createPermission(for: self.peerAddress, now: now)
        }
        var turn = server(network)
        turn.rotateNonceAt = IcePairSetup.seconds(490)
        network.nodes[1].endpoint = turn
        network.run(until: IcePairSetup.seconds(1200))
        // Allocated at 0.04 s with lifetime 600 s: the Refresh leaves 60 s before the end,
        // at 540.04 s, and reaches the server 10 ms later. The nonce went stale at 490 s:
        // 438, and the retry with the new nonce arrives one round trip later.
        XCTAssertEqual(server(network).entries("Refresh 438").map(\.at), [IcePairSetup.seconds(540.05)])
        let refreshes = server(network).entries("Refresh 600").map(\.at)
        XCTAssertEqual(refreshes.count, 2)
        XCTAssertEqual(try XCTUnwrap(refreshes.first), IcePairSetup.seconds(540.07), accuracy: 0.000_001)
        // Granted at 540.08 s: the next one 540 s later.
        XCTAssertEqual(try XCTUnwrap(refreshes.last), IcePairSetup.seconds(1080.09), accuracy: 0.000_001)
        XCTAssertEqual(client(network).client.state, .allocated)
        XCTAssertEqual(client(network).events.filter { $0.event == .refreshed(lifetime: 600) }.count, 2)
        // The permission (300 s) is refreshed every 240 s: at 0, 240, 480, 720, 960 s.
        let permissions = server(network).entries("CreatePermission 127").map(\.at.seconds)
        XCTAssertEqual(permissions.map { $0.rounded() }, [0, 240, 480, 720, 960])
    }

    func testDeallocationSendsRefreshWithLifetimeZero() throws {
        var network = makeNetwork()
        change(&network) { client, now in client.allocate(now: now) }
        network.run(until: IcePairSetup.seconds(1))
        change(&network) { client, now in client.deallocate(now: now) }
        network.run(until: IcePairSetup.seconds(2))
        XCTAssertEqual(server(network).entries("Refresh").map(\.entry), ["Refresh 0"])
        XCTAssertTrue(server(network).allocations.isEmpty)
        XCTAssertEqual(client(network).client.state, .deallocated)
        XCTAssertEqual(client(network).events.last?.event, .deallocated)
        XCTAssertNil(client(network).client.pollTimeout())
    }

    func testWrongPasswordFailsTheAllocation() throws {
        var network = makeNetwork(password: "nope")
        change(&network) { client, now in client.allocate(now: now) }
        network.run(until: IcePairSetup.seconds(1))
        XCTAssertEqual(client(network).client.state, .failed("server refused: 401 Unauthenticated"))
        var node = client(network)
        XCTAssertNil(node.client.wrap([1], for: peerAddress))
    }
}

extension Instant {
    /// For `XCTAssertEqual(_:_:accuracy:)` on instants, in seconds.
    var seconds: Double { Double(nanoseconds) / 1e9 }
}

func XCTAssertEqual(_ lhs: Instant, _ rhs: Instant, accuracy: Double, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(lhs.seconds, rhs.seconds, accuracy: accuracy, file: file, line: line)
}
