import PeerCore
import RTCBase
import SDP
import STUN
import WebRTCTestKit
import XCTest

/// A STUN server behind which every client appears at `mapped` (a NAT's public side).
final class StunServerNode: DatagramMachine {
    typealias Event = Never

    let mapped: SocketAddress
    private var replies: [Transmit] = []

    init(mapped: SocketAddress) { self.mapped = mapped }

    func handle(_ input: ReceivedDatagram, now: Instant) {
        let (source, local) = (input.source, input.destination)
        guard let request = try? StunMessage.decode(input.payload), request.method == .binding, request.messageClass == .request
        else { return }
        let response = request.response(attributes: [.xorMappedAddress(mapped)])
        replies.append(Transmit(destination: source, source: local, payload: response.encode(fingerprint: true)))
    }

    func handleTimeout(now: Instant) {}
    func pollTransmit() -> Transmit? { replies.isEmpty ? nil : replies.removeFirst() }
    func pollTimeout() -> Instant? { nil }
}

final class PeerGatheringTests: XCTestCase {
    func testServerReflexiveCandidateTricklesAfterTheOfferThenGatheringCompletes() throws {
        let network = VirtualNetwork()
        let server = SocketAddress(ipv4: 192, 0, 2, 1, port: 3478)
        let stun = StunServerNode(mapped: SocketAddress(ipv4: 203, 0, 113, 7, port: 40_000))
        network.attach(stun, at: [server])
        let peer = try Peer(
            configuration: PeerConfiguration(
                role: .offerer, transceivers: [.audio()], localAddresses: [PeerPair.offererAddress], iceServers: [.stun(server)],
                seed: 4),
            now: network.now)
        network.attach(peer, at: [PeerPair.offererAddress])
        XCTAssertFalse(peer.isGatheringComplete)
        let offer = try SessionDescription.parse(try peer.createOffer(now: network.now))
        XCTAssertEqual(offer.media[0].candidates.map(\.kind), [.host])
        XCTAssertFalse(offer.media[0].endOfCandidates)

        network.progress(for: .milliseconds(100))
        var candidates: [(Candidate, String)] = []
        var complete = false
        while let event = peer.pollEvent() {
            if case .localCandidate(let candidate, let mid) = event { candidates.append((candidate, mid)) }
            if case .gatheringComplete = event { complete = true }
        }
        XCTAssertEqual(candidates.map(\.0.kind), [.srflx])
        XCTAssertEqual(candidates.first?.0.address, "203.0.113.7")
        XCTAssertEqual(candidates.first?.0.port, 40_000)
        XCTAssertEqual(candidates.first?.0.relatedAddress, "10.0.0.1")
        XCTAssertEqual(candidates.first?.1, "0")
        XCTAssertTrue(complete)
        XCTAssertTrue(peer.isGatheringComplete)
    }

    func testUnansweredStunServerEndsGatheringAtTheDeadline() throws {
        let network = VirtualNetwork()
        let peer = try Peer(
            configuration: PeerConfiguration(
                role: .offerer, transceivers: [.audio()], localAddresses: [PeerPair.offererAddress],
                iceServers: [.stun(SocketAddress(ipv4: 192, 0, 2, 9, port: 3478))], seed: 4),
            now: network.now)
        network.attach(peer, at: [PeerPair.offererAddress])
        let start = network.now
        XCTAssertTrue(network.progress(until: { peer.isGatheringComplete }, limit: start + .seconds(10)))
        XCTAssertEqual(network.now - start, .seconds(3))
    }
}
