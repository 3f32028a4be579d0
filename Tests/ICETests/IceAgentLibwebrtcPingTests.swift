import ICE
import RTCBase
import STUN
import XCTest

/// How the libwebrtc profile keeps checking the selected pair (its P2PTransportChannel's
/// pings of the selected connection), on the virtual network's 20 ms round trip.
final class IceAgentLibwebrtcPingTests: XCTestCase {
    typealias Setup = IcePairSetup

    /// Three pings 48 ms apart, then 900 ms apart until five answers made the pair stable,
    /// then every 2.5 s: not RFC 7675's 5 s, which a remote whose own check was lost
    /// would wait for.
    func testTheSelectedPairIsPingedAtFortyEightThenNineHundredThenTwentyFiveHundredMilliseconds() throws {
        var network = Setup.network(options: IceAgentOptions())
        network.run(until: Setup.seconds(10))
        XCTAssertEqual(network.agent(0)?.state, .completed)
        let requests = network.delivered.filter { entry in
            guard entry.transmit.source == Setup.addressA, let message = try? StunMessage.decode(entry.transmit.payload) else { return false }
            return message.messageClass == .request
        }.map { ($0.at - Setup.seconds(0)).milliseconds }
        // Delivered 10 ms after each went out.
        XCTAssertEqual(requests, [10, 58, 106, 1006, 1906, 4406, 6906, 9406])
        XCTAssertEqual(network.agent(0)?.stats.checksSent, 1)
        XCTAssertEqual(network.agent(0)?.stats.consentRequestsSent, 7)
    }

    /// The remote's checks are lost (its own at 0 ms and the one A's first check triggered
    /// at 50 ms) and it retransmits by RFC 8489's timers (500 ms; Janus's libnice waited
    /// seconds): A's next ping on the selected pair, 48 ms after the first, makes it check
    /// again at its next slot (a triggered check, RFC 8445 7.3.1.4), 100 ms, so it is
    /// connected after 120 ms, not 520 ms.
    func testARemoteWhoseCheckWasLostIsConnectedByTheNextPingsTriggeredCheck() throws {
        var network = Setup.network(options: IceAgentOptions(), optionsB: Setup.rfc8445)
        var lostFromB = 0
        network.drop = { transmit in
            guard transmit.source == Setup.addressB, lostFromB < 2, let message = try? StunMessage.decode(transmit.payload),
                  message.messageClass == .request else { return false }
            lostFromB += 1
            return true
        }
        network.run(until: Setup.seconds(2)) { $0.agent(1).map { Setup.isConnected($0.state) } ?? false }
        XCTAssertEqual(lostFromB, 2)
        let connectedAt = try XCTUnwrap(network.time(1) {
            if case .stateChanged(.connected, _) = $0 { true } else { false }
        })
        XCTAssertEqual(connectedAt, Setup.seconds(0.12))
    }
}
