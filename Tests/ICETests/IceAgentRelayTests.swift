import ICE
import RTCBase
import STUN
import XCTest

/// Relay-only ICE through a TURN server (RFC 8656), both agents behind it.
final class IceAgentRelayTests: XCTestCase {
    typealias Setup = IcePairSetup
    let serverAddress = SocketAddress("127.0.0.1:3478")!

    func testRelayOnlyAgentsConnectThroughTurnAndExchangeData() throws {
        var options = IceAgentOptions()
        options.relayOnly = true
        var a = IceAgent(role: .controlling, localCredentials: Setup.credentialsA, tieBreaker: 10, options: options)
        var b = IceAgent(role: .controlled, localCredentials: Setup.credentialsB, tieBreaker: 20, options: options)
        a.addLocalHost(Setup.addressA)
        b.addLocalHost(Setup.addressB)
        a.addTurnServer(serverAddress, username: "test", password: "test", from: Setup.addressA, now: .zero)
        b.addTurnServer(serverAddress, username: "test", password: "test", from: Setup.addressB, now: .zero)
        var network = VirtualNetwork()
        network.attach(a, at: [Setup.addressA])
        network.attach(b, at: [Setup.addressB])
        let server = ScriptedTurnServer(address: serverAddress)
        let serverNode = network.attach(server, at: [serverAddress] + server.relayAddresses)
        network.run(until: Setup.seconds(1))

        // Only relayed candidates are announced: host addresses stay private.
        let announcedA = network.events(0).compactMap { event -> IceCandidate? in
            if case .localCandidate(let candidate) = event { return candidate }
            return nil
        }
        XCTAssertEqual(announcedA.map(\.type), [.relay])
        XCTAssertEqual(announcedA.first?.relatedAddress, Setup.addressA)
        XCTAssertEqual(announcedA.first?.priority, IceCandidate.priority(type: .relay))

        a = try XCTUnwrap(network.agent(0))
        b = try XCTUnwrap(network.agent(1))
        network.withAgent(0) { Setup.signal(from: b, to: &$0) }
        network.withAgent(1) { Setup.signal(from: a, to: &$0) }
        network.run(until: Setup.seconds(5)) { Setup.bothConnected($0) }
        XCTAssertTrue(Setup.bothConnected(network))
        XCTAssertEqual(network.agent(0)?.stats.selectedLocalType, .relay)
        XCTAssertEqual(network.agent(1)?.stats.selectedLocalType, .relay)
        XCTAssertEqual(network.agent(0)?.selectedPair?.remote.address, b.signalledCandidates.first?.address)
        // Every datagram the agents sent went to the TURN server, none to each other.
        XCTAssertTrue(network.delivered.filter { [Setup.addressA, Setup.addressB].contains($0.transmit.source) }
            .allSatisfy { $0.transmit.destination == self.serverAddress })

        // Data both ways; after the channel is bound it travels as ChannelData.
        network.run(until: Setup.seconds(6))
        network.withAgent(0) { XCTAssertTrue($0.send(Array("from A".utf8))) }
        network.withAgent(1) { XCTAssertTrue($0.send(Array("from B".utf8))) }
        network.run(until: Setup.seconds(7))
        XCTAssertEqual(network.nodes[1].received, [Array("from A".utf8)])
        XCTAssertEqual(network.nodes[0].received, [Array("from B".utf8)])
        let log = (network.nodes[serverNode].endpoint as? ScriptedTurnServer)?.log.map(\.entry) ?? []
        XCTAssertEqual(log.filter { $0.hasPrefix("ChannelBind") }.count, 2)
        XCTAssertGreaterThanOrEqual(log.filter { $0.hasPrefix("ChannelData to") }.count, 2)

        // Closing deallocates both allocations.
        network.withAgent(0) { $0.close(now: Setup.seconds(7)) }
        network.withAgent(1) { $0.close(now: Setup.seconds(7)) }
        network.run(until: Setup.seconds(8))
        XCTAssertEqual((network.nodes[serverNode].endpoint as? ScriptedTurnServer)?.allocations.count, 0)
    }

    func testRelayOnlyAgentFailsWhenTheTurnServerRefusesItsCredentials() throws {
        var options = IceAgentOptions()
        options.relayOnly = true
        var agent = IceAgent(role: .controlling, localCredentials: Setup.credentialsA, tieBreaker: 10, options: options)
        agent.addLocalHost(Setup.addressA)
        agent.addTurnServer(serverAddress, username: "test", password: "wrong", from: Setup.addressA, now: .zero)
        var network = VirtualNetwork()
        network.attach(agent, at: [Setup.addressA])
        let server = ScriptedTurnServer(address: serverAddress)
        network.attach(server, at: [serverAddress] + server.relayAddresses)
        network.run(until: Setup.seconds(1))
        XCTAssertEqual(network.events(0), [
            .turnFailed(server: serverAddress, reason: "server refused: 401 Unauthenticated"),
            .stateChanged(.failed, reason: .relayUnavailable),
        ])
        // Challenge, then the rejected authenticated attempt: two round trips.
        XCTAssertEqual(network.time(0) { $0 == .stateChanged(.failed, reason: .relayUnavailable) }, Setup.seconds(0.04))
    }
}
