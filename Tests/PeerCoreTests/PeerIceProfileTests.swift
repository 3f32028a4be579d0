import ICE
import Impairment
@testable import PeerCore
import RTCBase
import WebRTCTestKit
import XCTest

/// Where ICE setup time goes under each profile (issue 19 item 1), in virtual time on links
/// that delay every datagram 10 ms. PeerPair applies the offer at 20 ms and the answer at
/// 40 ms; the answerer checks first (20 ms) and the offerer answers it before it has the
/// answer's credentials.
final class PeerIceProfileTests: XCTestCase {
    private func pair(_ profile: IceProfile) throws -> PeerPair {
        var delay = ImpairmentProfile()
        delay.delayMs = 10
        var options = IceAgentOptions()
        options.profile = profile
        return try PeerPair(offerer: [.audio()], answerer: [.audio()], network: VirtualNetwork(defaultProfile: delay),
                            iceOptions: options)
    }

    private func connectedPair(_ profile: IceProfile) throws -> PeerPair {
        let pair = try pair(profile)
        XCTAssertTrue(pair.connect(), "offerer \(pair.offererLog.failures), answerer \(pair.answererLog.failures)")
        return pair
    }

    /// libwebrtc: each side's pair is usable, and its DTLS may start, when its first check
    /// is answered: one round trip (20 ms) after it had the remote description.
    func testUnderLibwebrtcIceTakesOneRoundTripOnEachSide() throws {
        let pair = try connectedPair(.libwebrtc)
        XCTAssertEqual(try XCTUnwrap(pair.answerer.timeline.iceMs), 20, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(pair.offerer.timeline.iceMs), 20, accuracy: 0.001)
        XCTAssertEqual(pair.offerer.stats(now: pair.network.now).ice.selectedPairRtt, .milliseconds(20))
    }

    /// rfc8445: the offerer's check is answered at 60 ms, its nominating check waits for
    /// Ta (50 ms after the first, 90 ms) and is answered at 110 ms; the answerer's pair is
    /// used when that nomination reaches it at 100 ms.
    func testUnderRfc8445IceWaitsForTheRegularNominationPacedByTa() throws {
        let pair = try connectedPair(.rfc8445)
        XCTAssertEqual(try XCTUnwrap(pair.offerer.timeline.iceMs), 70, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(pair.answerer.timeline.iceMs), 80, accuracy: 0.001)
    }

    /// The offerer is the DTLS server (the answer says `a=setup:active`). The answerer's
    /// ClientHello (sent at its ICE's 40 ms) reaches it at 50 ms, before its own first check
    /// is answered (60 ms): it keeps the ClientHello until then, so its flight's timer starts
    /// when the flight can leave and from ICE's round trip (twice 20 ms, at least 50 ms),
    /// not from OpenSSL's 1 s when the ClientHello came. That timer is real time (see
    /// `DtlsEndpoint`), so it is read as soon as the pair is usable.
    func testADtlsServerAnswersAnEarlyClientHelloWhenItsPairIsUsableWithTheRoundTripsTimer() throws {
        let pair = try pair(.libwebrtc)
        var keptEarly = false
        var timer: Duration?
        pair.network.progress(until: {
            keptEarly = keptEarly || !pair.offerer.earlyDtls.isEmpty
            if pair.offerer.timeline.iceConnected != nil, let deadline = pair.offerer.dtls?.pollTimeout() {
                timer = deadline - pair.network.now
            }
            return pair.offerer.timeline.iceConnected != nil
        }, limit: pair.network.now + .seconds(1))
        XCTAssertTrue(keptEarly, "the ClientHello came before the server's pair was usable")
        XCTAssertEqual(try XCTUnwrap(pair.offerer.timeline.iceMs), 20, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(timer).milliseconds, 50, accuracy: 10)
        XCTAssertTrue(pair.connect())
        XCTAssertTrue(pair.offerer.earlyDtls.isEmpty)
    }
}
