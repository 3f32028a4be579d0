import DTLS
import Foundation
import Impairment
import PeerCore
import RTCBase
import SDP
import WebRTCTestKit
import XCTest

final class PeerFailureTests: XCTestCase {
    func configuration(_ role: PeerRole, _ address: SocketAddress, certificate: DtlsCertificate = .shared) -> PeerConfiguration {
        PeerConfiguration(role: role, transceivers: [.audio()], localAddresses: [address], certificate: certificate, seed: 9)
    }

    /// An offerer and an answerer whose answer text goes through `edit` first.
    func negotiate(
        network: VirtualNetwork, answererCertificate: DtlsCertificate = .shared, editOffer: (String) -> String = { $0 },
        editAnswer: (String) -> String = { $0 }
    ) throws -> (Peer, Peer) {
        let offerer = try Peer(configuration: configuration(.offerer, PeerPair.offererAddress), now: network.now)
        let answerer = try Peer(
            configuration: configuration(.answerer, PeerPair.answererAddress, certificate: answererCertificate), now: network.now)
        network.attach(offerer, at: [PeerPair.offererAddress])
        network.attach(answerer, at: [PeerPair.answererAddress])
        try answerer.setRemoteOffer(editOffer(try offerer.createOffer(now: network.now)), now: network.now)
        try offerer.setRemoteAnswer(editAnswer(try answerer.createAnswer(now: network.now)), now: network.now)
        return (offerer, answerer)
    }

    func testCertificateNotMatchingTheFingerprintFailsInTheDtlsPhase() throws {
        let network = VirtualNetwork()
        // The answerer signs with another certificate than the fingerprint its answer shows.
        let shown = DtlsCertificate.shared.fingerprint.split(separator: " ")[1]
        let (offerer, answerer) = try negotiate(network: network, answererCertificate: DtlsCertificate(), editAnswer: { text in
            text.replacingOccurrences(
                of: "a=fingerprint:sha-256 [0-9A-F:]+", with: "a=fingerprint:sha-256 \(shown)", options: .regularExpression)
        })
        network.progress(for: .seconds(2))
        var log = EventLog()
        log.drain(offerer)
        XCTAssertFalse(offerer.isConnected)
        XCTAssertEqual(offerer.failure?.phase, .dtls, "\(String(describing: offerer.failure))")
        XCTAssertTrue(offerer.failure?.reason.contains("fingerprint mismatch") ?? false, "\(String(describing: offerer.failure))")
        XCTAssertEqual(log.failures.count, 1)
        XCTAssertNotNil(offerer.timeline.iceConnected)
        XCTAssertFalse(answerer.isConnected)
    }

    func testUnreachableCandidateFailsTheIcePhaseAfterChecksTimeOut() throws {
        let network = VirtualNetwork()
        // Each side is told a wrong address for the other, so no check arrives anywhere.
        let (offerer, answerer) = try negotiate(
            network: network, editOffer: { $0.replacingOccurrences(of: "10.0.0.1 5000", with: "10.9.9.8 5000") },
            editAnswer: { $0.replacingOccurrences(of: "10.0.0.2 6000", with: "10.9.9.9 6000") })
        network.progress(for: .seconds(60))
        XCTAssertEqual(offerer.failure?.phase, .ice)
        XCTAssertEqual(offerer.failure?.reason, "ICE failed: every candidate pair failed")
        XCTAssertGreaterThan(network.undeliverable, 5)
        XCTAssertNil(offerer.timeline.iceConnected)
        XCTAssertEqual(answerer.failure?.phase, .ice)
    }

    func testLinkGoingSilentAfterSetupEndsInConsentExpiry() throws {
        let pair = try PeerPair(offerer: [.audio()], answerer: [.audio()])
        XCTAssertTrue(pair.connect())
        var dead = ImpairmentProfile()
        dead.lossPct = 100
        pair.network.impair(from: PeerPair.offererAddress, to: PeerPair.answererAddress, profile: dead, seed: 1)
        pair.network.impair(from: PeerPair.answererAddress, to: PeerPair.offererAddress, profile: dead, seed: 2)
        pair.network.progress(for: .seconds(45))
        pair.drain()
        XCTAssertEqual(pair.offerer.failure, PeerFailure(phase: .connected, reason: "ICE failed: consent expired: no response for 30 s"))
        XCTAssertEqual(pair.offererLog.failures.count, 1)
        XCTAssertEqual(pair.offerer.iceState, .failed)
        XCTAssertFalse(pair.offerer.isConnected)
    }

    func testAnswererTakesControlAgainstAnIceLiteOfferAndARoleConflictStillConnects() throws {
        let network = VirtualNetwork()
        // The answerer believes the offerer is ice-lite, so both claim to be controlling:
        // the conflict is settled by tie-breakers (RFC 8445 7.3.1.1) and the call connects.
        let (offerer, answerer) = try negotiate(network: network, editOffer: { text in
            text.replacingOccurrences(of: "t=0 0\r\n", with: "t=0 0\r\na=ice-lite\r\n")
        })
        XCTAssertEqual(offerer.iceRole, .controlling)
        XCTAssertEqual(answerer.iceRole, .controlling)
        network.progress(for: .seconds(3))
        XCTAssertTrue(offerer.isConnected)
        XCTAssertTrue(answerer.isConnected)
        XCTAssertNotEqual(offerer.iceRole, answerer.iceRole)
    }

    func testTrickledCandidatesConnectPeersWhoseDescriptionsHadNone() throws {
        let network = VirtualNetwork()
        func strip(_ text: String) -> String {
            text.split(separator: "\r\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("a=candidate") && !$0.hasPrefix("a=end-of-candidates") }
                .joined(separator: "\r\n")
        }
        let (offerer, answerer) = try negotiate(network: network, editOffer: strip, editAnswer: strip)
        network.progress(for: .seconds(2))
        XCTAssertFalse(offerer.isConnected)
        XCTAssertTrue(offerer.addRemoteCandidate("candidate:1 1 udp 2130706431 10.0.0.2 6000 typ host", now: network.now))
        XCTAssertTrue(answerer.addRemoteCandidate("candidate:1 1 udp 2130706431 10.0.0.1 5000 typ host", now: network.now))
        XCTAssertFalse(answerer.addRemoteCandidate("candidate:1 1 tcp 2130706431 10.0.0.1 9 typ host", now: network.now))
        network.progress(for: .seconds(2))
        XCTAssertTrue(offerer.isConnected)
        XCTAssertTrue(answerer.isConnected)
    }

    func testDeltaFramesWithoutKeyframeMakeTheReceiverAskForOne() throws {
        let pair = try PeerPair(
            offerer: [.video("1", .sendonly, codecs: [.vp8()])], answerer: [.video("1", .recvonly, codecs: [.vp8()])])
        XCTAssertTrue(pair.connect())
        let deltas = (1...5).map { PeerLossRecoveryTests.vp8Frame(index: $0, size: 2_000, keyframe: false) }
        _ = pair.send(deltas, mid: "1", interval: .milliseconds(33))
        XCTAssertGreaterThan(pair.offererLog.keyframeRequests, 0)
        let plis = try XCTUnwrap(pair.answerer.stats(now: pair.network.now).received.first).rtp.plisSent
        XCTAssertGreaterThan(plis, 0)
        // The keyframe ends the requests: no retry runs once it arrived.
        _ = pair.send([PeerLossRecoveryTests.vp8Frame(index: 6, size: 2_000, keyframe: true)], mid: "1", interval: .milliseconds(33))
        let requests = pair.offererLog.keyframeRequests
        pair.network.progress(for: .seconds(2))
        pair.drain()
        XCTAssertEqual(pair.offererLog.keyframeRequests, requests)
        XCTAssertNotNil(pair.answerer.timeline.firstFrame)
    }
}
