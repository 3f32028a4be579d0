import ICE
import RTCBase
import STUN
import XCTest

final class IceAgentConnectTests: XCTestCase {
    typealias Setup = IcePairSetup

    func testControllingAndControlledAgentsSelectTheHostPair() throws {
        var network = Setup.network()
        network.run(until: Setup.seconds(5)) { network in
            network.agent(0)?.state == .completed && network.agent(1)?.state == .completed
        }
        let a = try XCTUnwrap(network.agent(0))
        let b = try XCTUnwrap(network.agent(1))
        XCTAssertEqual(a.state, .completed)
        XCTAssertEqual(b.state, .completed)
        XCTAssertEqual(a.selectedPair?.local.base, Setup.addressA)
        XCTAssertEqual(a.selectedPair?.remote.address, Setup.addressB)
        XCTAssertEqual(b.selectedPair?.local.base, Setup.addressB)
        XCTAssertEqual(b.selectedPair?.remote.address, Setup.addressA)
        XCTAssertEqual(a.role, .controlling)
        XCTAssertEqual(b.role, .controlled)
        // Both directions take 10 ms: the STUN round trip of the selected pair is 20 ms.
        XCTAssertEqual(a.stats.selectedPairRtt, .milliseconds(20))
        XCTAssertEqual(a.stats.selectedLocalType, .host)
        XCTAssertEqual(a.stats.selectedRemoteType, .host)
        // A: a check, then the nominating check. B: one check, whose answer arrives while
        // its triggered repeat waits (RFC 8445 7.3.1.4), so the repeat is not needed.
        XCTAssertEqual(a.stats.checksSent, 2)
        XCTAssertEqual(b.stats.checksSent, 1)
        XCTAssertEqual(a.stats.responsesReceived, 2)
        XCTAssertEqual(a.stats.dropped, 0)
        // Check at 0, answer at 20 ms, nominating check paced to Ta = 50 ms, answer at 70 ms.
        let connectedAt = try XCTUnwrap(network.time(0) { $0 == .stateChanged(.connected, reason: .pairNominated) })
        XCTAssertEqual(connectedAt, Setup.seconds(0.07))
        let states = network.events(0).compactMap { event -> IceConnectionState? in
            if case .stateChanged(let state, _) = event { return state }
            return nil
        }
        XCTAssertEqual(states, [.checking, .connected, .completed])
    }

    func testHigherPriorityHostAddressIsSelected() throws {
        var a = IceAgent(role: .controlling, localCredentials: Setup.credentialsA, tieBreaker: 1)
        var b = IceAgent(role: .controlled, localCredentials: Setup.credentialsB, tieBreaker: 2)
        let second = SocketAddress("127.0.0.2:5000")!
        a.addLocalHost(Setup.addressA)
        a.addLocalHost(second)
        b.addLocalHost(Setup.addressB)
        // The first address given has the higher local preference (RFC 8445 5.1.2.1).
        XCTAssertGreaterThan(a.localCandidates[0].priority, a.localCandidates[1].priority)
        Setup.signal(from: b, to: &a)
        Setup.signal(from: a, to: &b)
        var network = VirtualNetwork()
        network.attach(a, at: [Setup.addressA, second])
        network.attach(b, at: [Setup.addressB])
        network.run(until: Setup.seconds(5)) { Setup.bothConnected($0) }
        XCTAssertEqual(network.agent(0)?.selectedPair?.local.base, Setup.addressA)
        XCTAssertEqual(network.agent(1)?.selectedPair?.remote.address, Setup.addressA)
    }

    func testAggressiveNominationConnectsOnTheFirstCheck() throws {
        var options = Setup.rfc8445
        options.aggressiveNomination = true
        var network = Setup.network(options: options)
        network.run(until: Setup.seconds(5)) { Setup.bothConnected($0) }
        XCTAssertEqual(network.agent(1)?.selectedPair?.remote.address, Setup.addressA)
        // One check carrying USE-CANDIDATE and its answer: 20 ms.
        XCTAssertEqual(network.time(0) { $0 == .stateChanged(.connected, reason: .pairNominated) }, Setup.seconds(0.02))
    }

    func testFullAgentNominatesAgainstAnIceLiteRemote() throws {
        // Even an agent created as controlled takes control when the remote is lite (RFC 8445 6.1.1).
        let setup = Setup.liteNetwork(role: .controlled)
        var network = setup.network
        let lite = setup.lite
        XCTAssertEqual(network.agent(0)?.role, .controlling)
        network.run(until: Setup.seconds(5)) { $0.agent(0)?.state == .completed }
        XCTAssertEqual(network.agent(0)?.state, .completed)
        XCTAssertEqual(network.agent(0)?.selectedPair?.remote.address, Setup.liteAddress)
        XCTAssertEqual((network.nodes[lite].endpoint as? LiteResponder)?.nominatedFrom, Setup.addressA)
        XCTAssertTrue(network.events(0).contains(.roleChanged(.controlling)))
    }

    func testBothControllingIsResolvedByTheLargerTieBreaker() throws {
        var network = Setup.network(roleA: .controlling, roleB: .controlling, tieBreakerA: 100, tieBreakerB: 5)
        network.run(until: Setup.seconds(5)) { Setup.bothConnected($0) }
        XCTAssertTrue(Setup.bothConnected(network))
        XCTAssertEqual(network.agent(0)?.role, .controlling)
        XCTAssertEqual(network.agent(1)?.role, .controlled)
        XCTAssertEqual(network.events(1).filter { $0 == .roleChanged(.controlled) }.count, 1)
        XCTAssertEqual(network.agent(1)?.selectedPair?.remote.address, Setup.addressA)
    }

    func testBothControlledIsResolvedByTheLargerTieBreaker() throws {
        var network = Setup.network(roleA: .controlled, roleB: .controlled, tieBreakerA: 100, tieBreakerB: 5)
        network.run(until: Setup.seconds(5)) { Setup.bothConnected($0) }
        XCTAssertTrue(Setup.bothConnected(network))
        XCTAssertEqual(network.agent(0)?.role, .controlling)
        XCTAssertEqual(network.agent(1)?.role, .controlled)
    }

    func testFirstChecksLostStillConnectsThroughRetransmission() throws {
        var network = Setup.network()
        var lost = 0
        network.drop = { transmit in
            guard lost < 3, let message = try? StunMessage.decode(transmit.payload), message.messageClass == .request else { return false }
            lost += 1
            return true
        }
        network.run(until: Setup.seconds(30)) { Setup.bothConnected($0) }
        XCTAssertEqual(lost, 3)
        XCTAssertTrue(Setup.bothConnected(network))
        let connectedAt = try XCTUnwrap(network.time(0) { $0 == .stateChanged(.connected, reason: .pairNominated) })
        // The first retransmission comes one RTO (500 ms) after the lost request.
        XCTAssertGreaterThanOrEqual(connectedAt, Setup.seconds(0.5))
        XCTAssertLessThan(connectedAt, Setup.seconds(3))
    }

    func testNominationWhoseEveryTransmissionIsLostIsTriedAgain() throws {
        var network = Setup.network()
        var lost = 0
        network.drop = { transmit in
            guard lost < 7, let message = try? StunMessage.decode(transmit.payload), message.useCandidate else { return false }
            lost += 1
            return true
        }
        network.run(until: Setup.seconds(60)) { Setup.bothConnected($0) }
        XCTAssertEqual(lost, 7)
        // Nominating check sent at 50 ms, given up 39.5 s later; the next one is answered.
        let connectedAt = try XCTUnwrap(network.time(0) { $0 == .stateChanged(.connected, reason: .pairNominated) })
        XCTAssertEqual(connectedAt, Setup.seconds(39.57))
        XCTAssertEqual(network.agent(1)?.selectedPair?.remote.address, Setup.addressA)
    }

    /// RFC 8445 7.3.1.4: a check from the other side cancels the nominating check in
    /// progress; the triggered check that replaces it must nominate too. Here the
    /// controlled side's first check is lost, so its retransmission arrives while the
    /// nomination is in flight, and the nomination's answer is lost: the controlling side
    /// used to wait out the cancelled transaction (39.5 s) before nominating again.
    func testANominationCancelledByATriggeredCheckIsCarriedByTheNewCheck() throws {
        var network = Setup.network()
        var droppedRequest = false
        var nominations: [TransactionID] = []
        var droppedAnswer = false
        network.drop = { transmit in
            guard let message = try? StunMessage.decode(transmit.payload) else { return false }
            let fromB = transmit.source == Setup.addressB
            if fromB, message.messageClass == .request, !droppedRequest {
                droppedRequest = true
                return true
            }
            if !fromB, message.messageClass == .request, message.useCandidate { nominations.append(message.transactionID) }
            if fromB, message.messageClass == .successResponse, !droppedAnswer, nominations.first == message.transactionID {
                droppedAnswer = true
                return true
            }
            return false
        }
        network.run(until: Setup.seconds(60)) { Setup.bothConnected($0) }
        XCTAssertTrue(droppedRequest && droppedAnswer, "both losses happened")
        XCTAssertGreaterThanOrEqual(nominations.count, 2, "the nomination was sent again")
        let connectedAt = try XCTUnwrap(network.time(0) { $0 == .stateChanged(.connected, reason: .pairNominated) })
        XCTAssertLessThan(connectedAt, Setup.seconds(3))
    }

    func testUnreachableRemoteFailsWhenEveryCheckTimesOut() throws {
        var options = Setup.rfc8445
        options.maxTransmissions = 3
        var network = Setup.network(options: options)
        network.drop = { $0.source == Setup.addressB }
        network.run(until: Setup.seconds(60)) { $0.agent(0)?.state == .failed }
        // Sent at 0, 0.5 s and 1.5 s, given up 16 RTO (8 s) after the last: 9.5 s.
        let failedAt = try XCTUnwrap(network.time(0) { $0 == .stateChanged(.failed, reason: .allPairsFailed) })
        XCTAssertEqual(failedAt, Setup.seconds(9.5))
        XCTAssertEqual(network.agent(0)?.stats.checksSent, 3)
    }

    func testLateTrickledCandidateUpgradesThePeerReflexiveOne() throws {
        var a = IceAgent(role: .controlling, localCredentials: Setup.credentialsA, tieBreaker: 1)
        var b = IceAgent(role: .controlled, localCredentials: Setup.credentialsB, tieBreaker: 2)
        a.addLocalHost(Setup.addressA)
        b.addLocalHost(Setup.addressB)
        // A knows B's credentials but none of its candidates yet; B knows everything.
        a.setRemoteCredentials(Setup.credentialsB)
        Setup.signal(from: a, to: &b)
        var network = VirtualNetwork()
        network.attach(a, at: [Setup.addressA])
        network.attach(b, at: [Setup.addressB])
        network.run(until: Setup.seconds(2)) { Setup.bothConnected($0) }
        // B's check taught A a peer-reflexive candidate, enough to connect.
        XCTAssertTrue(Setup.bothConnected(network))
        XCTAssertEqual(network.agent(0)?.remoteCandidates.map(\.type), [.prflx])
        XCTAssertEqual(network.agent(0)?.stats.selectedRemoteType, .prflx)
        let hostB = try XCTUnwrap(network.agent(1)?.localCandidates.first)
        network.withAgent(0) { $0.addRemoteCandidate(.remote(hostB.address, priority: hostB.priority, foundation: hostB.foundation)) }
        XCTAssertEqual(network.agent(0)?.remoteCandidates.map(\.type), [.host])
        XCTAssertEqual(network.agent(0)?.remoteCandidates.first?.priority, hostB.priority)
        network.withAgent(0) { $0.endOfRemoteCandidates() }
        network.run(until: Setup.seconds(4))
        XCTAssertEqual(network.agent(0)?.state, .completed)
        XCTAssertEqual(network.agent(0)?.selectedPair?.remote.address, Setup.addressB)
    }
}
