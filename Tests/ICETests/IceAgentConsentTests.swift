import ICE
import RTCBase
import STUN
import XCTest

/// Consent freshness (RFC 7675) and ICE restart (RFC 8445 9).
final class IceAgentConsentTests: XCTestCase {
    typealias Setup = IcePairSetup

    func testConsentIsLostThirtySecondsAfterTheLastResponse() throws {
        var network = Setup.network()
        network.run(until: Setup.seconds(2)) { Setup.bothConnected($0) }
        XCTAssertTrue(Setup.bothConnected(network))
        network.run(until: Setup.seconds(12))
        // From 12 s on, agent B is silent.
        network.drop = { $0.source == Setup.addressB }
        network.run(until: Setup.seconds(80)) { $0.agent(0)?.state == .failed }
        let lastAnswer = try XCTUnwrap(network.delivered.last { $0.transmit.source == Setup.addressB }?.at)
        XCTAssertLessThanOrEqual(lastAnswer, Setup.seconds(12.01))
        XCTAssertGreaterThan(lastAnswer, Setup.seconds(6))
        let disconnectedAt = network.time(0) { $0 == .stateChanged(.disconnected, reason: .consentMissing) }
        let failedAt = network.time(0) { $0 == .stateChanged(.failed, reason: .consentExpired) }
        XCTAssertEqual(disconnectedAt, lastAnswer + .seconds(10))
        XCTAssertEqual(failedAt, lastAnswer + .seconds(30))
        XCTAssertNil(network.agent(0)?.selectedPair)
    }

    func testConsentRecoversWhenTheRemoteAnswersAgainBeforeThirtySeconds() throws {
        var network = Setup.network()
        network.run(until: Setup.seconds(2))
        network.drop = { $0.source == Setup.addressB }
        network.run(until: Setup.seconds(20))
        XCTAssertEqual(network.agent(0)?.state, .disconnected)
        network.drop = { _ in false }
        network.run(until: Setup.seconds(60))
        // Back to where it was before the silence: checks had finished, so completed.
        let restoredAt = try XCTUnwrap(network.time(0) { $0 == .stateChanged(.completed, reason: .consentRestored) })
        // The next consent check after 20 s goes out within 6 s and is answered 20 ms later.
        XCTAssertGreaterThan(restoredAt, Setup.seconds(20))
        XCTAssertLessThanOrEqual(restoredAt, Setup.seconds(26.02))
        XCTAssertEqual(network.agent(0)?.state, .completed)
        XCTAssertNil(network.time(0) { $0 == .stateChanged(.failed, reason: .consentExpired) })
    }

    func testConsentSurvivesTwentyPercentLossThroughRetransmission() throws {
        var network = Setup.network()
        network.run(until: Setup.seconds(1))
        var generator = SeededGenerator(seed: 30)
        network.drop = { _ in generator.nextUnit() < 0.2 }
        network.run(until: Setup.seconds(121))
        XCTAssertEqual(network.agent(0)?.state, .completed)
        XCTAssertNil(network.time(0) { $0 == .stateChanged(.disconnected, reason: .consentMissing) })
        let stats = try XCTUnwrap(network.agent(0)?.stats)
        // About 24 consent checks in 120 s, some of them sent more than once.
        XCTAssertGreaterThan(stats.consentRequestsSent, 26)
        XCTAssertLessThan(stats.consentRequestsSent, 60)
    }

    func testConsentChecksComeEveryFiveSecondsPlusOrMinusTwentyPercent() throws {
        var network = Setup.network()
        network.run(until: Setup.seconds(120))
        XCTAssertEqual(network.agent(0)?.state, .completed)
        let consentTimes = network.delivered.filter { entry in
            guard entry.transmit.source == Setup.addressA, entry.at > Setup.seconds(0.1),
                  let message = try? StunMessage.decode(entry.transmit.payload) else { return false }
            return message.messageClass == .request
        }.map(\.at)
        XCTAssertGreaterThanOrEqual(consentTimes.count, 19)  // 120 s / 6 s
        XCTAssertLessThanOrEqual(consentTimes.count, 30)  // 120 s / 4 s
        let gaps = zip(consentTimes.dropFirst(), consentTimes).map { ($0 - $1).milliseconds }
        XCTAssertTrue(gaps.allSatisfy { $0 >= 4000 && $0 <= 6000 }, "\(gaps)")
        XCTAssertGreaterThan(Set(gaps).count, 10)  // randomized, not a fixed period
        XCTAssertEqual(network.agent(0)?.stats.consentRequestsSent, consentTimes.count)
    }

    func testIceRestartReconnectsWithNewCredentials() throws {
        var network = Setup.network()
        network.run(until: Setup.seconds(3))
        XCTAssertEqual(network.agent(0)?.state, .completed)
        let restartAt = network.now
        let restarted = Setup.restartBoth(&network)
        let a = try XCTUnwrap(restarted.a)
        let b = try XCTUnwrap(restarted.b)
        // Media keeps its path while the restart runs.
        XCTAssertEqual(a.selectedPair?.remote.address, Setup.addressB)
        Setup.signalRestart(&network, a: a, b: b)
        network.run(until: Setup.seconds(60))
        let reselected = network.nodes[0].events.filter { entry in
            if case .selectedPairChanged = entry.event { return entry.at > restartAt }
            return false
        }
        XCTAssertEqual(reselected.count, 1)
        XCTAssertLessThan(try XCTUnwrap(reselected.first?.at), restartAt + .milliseconds(200))
        XCTAssertEqual(network.agent(0)?.localCredentials, Setup.restartedCredentialsA)
        XCTAssertEqual(network.agent(0)?.state, .completed)
        XCTAssertEqual(network.agent(1)?.state, .completed)
        // Consent now runs with the new credentials: nothing was dropped as unauthenticated.
        XCTAssertEqual(network.agent(0)?.stats.dropped, 0)
        XCTAssertEqual(network.agent(1)?.stats.dropped, 0)
    }
}
