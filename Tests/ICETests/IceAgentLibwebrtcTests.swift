import ICE
import RTCBase
import STUN
import XCTest

/// The libwebrtc profile (the default): a pair is used on its first answered check,
/// checks are repeated by pinging again every 48 ms, nomination is semi-aggressive.
/// The virtual network delays every datagram 10 ms, so a check's round trip is 20 ms.
final class IceAgentLibwebrtcTests: XCTestCase {
    typealias Setup = IcePairSetup

    func testFirstAnsweredCheckSelectsThePairAndCarriesTheNomination() throws {
        var network = Setup.network(options: IceAgentOptions())
        network.run(until: Setup.seconds(5)) { $0.agent(0)?.state == .completed && $0.agent(1)?.state == .completed }
        // No pair is selected yet, so A's first check nominates (semi-aggressive): its
        // answer at 20 ms both selects and nominates the pair.
        XCTAssertEqual(network.time(0) { $0 == .stateChanged(.connected, reason: .pairNominated) }, Setup.seconds(0.02))
        // B checks at 0 too; its answer (20 ms) makes the pair usable before the nomination
        // from A's check is confirmed by B's own success.
        let bConnected = try XCTUnwrap(network.time(1) {
            if case .stateChanged(.connected, _) = $0 { true } else { false }
        })
        XCTAssertEqual(bConnected, Setup.seconds(0.02))
        XCTAssertEqual(network.agent(0)?.selectedPair?.remote.address, Setup.addressB)
        XCTAssertEqual(network.agent(1)?.selectedPair?.remote.address, Setup.addressA)
        XCTAssertEqual(network.agent(0)?.stats.checksSent, 1)
    }

    func testAgainstIceLiteTheFirstAnswerConnectsAndTheNextPingNominates() throws {
        let setup = Setup.liteNetwork(role: .controlling)
        var network = setup.network
        let lite = setup.lite
        var nominatingChecksAt: [Instant] = []
        var now = Instant.zero
        network.drop = { transmit in
            if let message = try? StunMessage.decode(transmit.payload), message.useCandidate { nominatingChecksAt.append(now) }
            return false
        }
        network.run(until: Setup.seconds(5)) { network in
            now = network.now
            return network.agent(0)?.state == .completed
        }
        // The first check (no USE-CANDIDATE: against ice-lite only the selected pair is
        // nominated) is answered at 20 ms: DTLS may start then.
        XCTAssertEqual(network.time(0) { $0 == .stateChanged(.connected, reason: .pairValid) }, Setup.seconds(0.02))
        // The selected pair's next ping, one weak ping interval (48 ms) after the first,
        // carries USE-CANDIDATE; its answer at 68 ms completes ICE.
        XCTAssertEqual(nominatingChecksAt.count, 1)
        XCTAssertEqual(network.time(0) { $0 == .stateChanged(.completed, reason: .checksFinished) }, Setup.seconds(0.068))
        XCTAssertEqual((network.nodes[lite].endpoint as? LiteResponder)?.nominatedFrom, Setup.addressA)
        XCTAssertEqual((network.nodes[lite].endpoint as? LiteResponder)?.requests, 2)
    }

    func testLostChecksAreRepeatedEveryWeakPingIntervalNotByRetransmission() throws {
        var network = Setup.network(options: IceAgentOptions())
        var lost: [TransactionID] = []
        network.drop = { transmit in
            guard transmit.source == Setup.addressA, lost.count < 3,
                  let message = try? StunMessage.decode(transmit.payload), message.messageClass == .request
            else { return false }
            lost.append(message.transactionID)
            return true
        }
        network.run(until: Setup.seconds(5)) { $0.agent(0).map { Setup.isConnected($0.state) } ?? false }
        // A's checks at 0, 48 and 96 ms are lost, each a new transaction (libwebrtc sends a
        // check once); the fourth, at 144 ms, is answered at 164 ms. RFC 8489 timers would
        // have retransmitted the first at 500 ms, 1.5 s and 3.5 s.
        XCTAssertEqual(Set(lost).count, 3)
        let connectedAt = try XCTUnwrap(network.time(0) {
            if case .stateChanged(.connected, _) = $0 { true } else { false }
        })
        XCTAssertEqual(connectedAt, Setup.seconds(0.164))
    }

    /// After an ICE restart the old path stays selected (without a pair of the new check
    /// list): a lost check on a new pair is still repeated at the next ping slot.
    func testAfterAnIceRestartALostCheckIsPingedAgain() throws {
        var network = Setup.network(options: IceAgentOptions())
        network.run(until: Setup.seconds(3))
        XCTAssertEqual(network.agent(0)?.state, .completed)
        let restartAt = network.now
        let restarted = Setup.restartBoth(&network)
        Setup.signalRestart(&network, a: try XCTUnwrap(restarted.a), b: try XCTUnwrap(restarted.b))
        // B's new checks are all lost, and so is A's first: only A pinging again can
        // make a new pair valid.
        var lostFromA: [TransactionID] = []
        network.drop = { transmit in
            guard let message = try? StunMessage.decode(transmit.payload), message.messageClass == .request else { return false }
            if message.username?.hasPrefix(Setup.restartedCredentialsA.ufrag + ":") == true { return true }
            guard message.username?.hasPrefix(Setup.restartedCredentialsB.ufrag + ":") == true, lostFromA.isEmpty else { return false }
            lostFromA.append(message.transactionID)
            return true
        }
        network.run(until: Setup.seconds(10))
        XCTAssertEqual(lostFromA.count, 1)
        let reselected = network.nodes[0].events.filter { entry in
            if case .selectedPairChanged = entry.event { return entry.at > restartAt }
            return false
        }
        // The lost check at the restart, the next 48 ms later, answered 20 ms after that.
        XCTAssertEqual(reselected.first?.at, restartAt + .milliseconds(68))
    }

    func testUnreachableRemoteFailsFifteenSecondsAfterTheFirstUnansweredCheck() throws {
        var network = Setup.network(options: IceAgentOptions())
        network.drop = { $0.source == Setup.addressB }
        network.run(until: Setup.seconds(60)) { $0.agent(0)?.state == .failed }
        let failedAt = try XCTUnwrap(network.time(0) { $0 == .stateChanged(.failed, reason: .allPairsFailed) })
        XCTAssertEqual(failedAt, Setup.seconds(15))
        // Pinged every 48 ms from 0 until the pair failed at 15 s: 0 ... 14.976 s.
        XCTAssertEqual(network.agent(0)?.stats.checksSent, 313)
    }
}
