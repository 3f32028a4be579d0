import PeerCore
import RTCBase
import SDP
import WebRTCTestKit
import XCTest

final class PeerRelayTests: XCTestCase {
    func testRelayOnlyPeersConnectThroughTurnAndCarryFrames() throws {
        let network = VirtualNetwork()
        let turnAddress = SocketAddress(ipv4: 192, 0, 2, 50, port: 3478)
        let turn = VirtualTurnServer(address: turnAddress, username: "test", password: "secret")
        network.attach(turn, at: [turnAddress] + turn.relayAddresses)
        func peer(_ role: PeerRole, _ address: SocketAddress) throws -> Peer {
            try Peer(
                configuration: PeerConfiguration(
                    role: role, transceivers: [.audio(), .video(codecs: [.vp8()])], localAddresses: [address],
                    iceServers: [.turn(turnAddress, username: "test", password: "secret")], relayOnly: true, seed: 12),
                now: network.now)
        }
        let offerer = try peer(.offerer, PeerPair.offererAddress)
        let answerer = try peer(.answerer, PeerPair.answererAddress)
        network.attach(offerer, at: [PeerPair.offererAddress])
        network.attach(answerer, at: [PeerPair.answererAddress])
        // Vanilla ICE: wait for the relayed candidates before signaling.
        XCTAssertTrue(network.progress(until: { offerer.isGatheringComplete && answerer.isGatheringComplete }, limit: network.now + .seconds(3)))
        let offer = try offerer.createOffer(now: network.now)
        let offered = try SessionDescription.parse(offer).media[0].candidates
        XCTAssertEqual(offered.map(\.kind), [.relay])  // relay-only: the host address stays private
        try answerer.setRemoteOffer(offer, now: network.now)
        try offerer.setRemoteAnswer(try answerer.createAnswer(now: network.now), now: network.now)
        var offererLog = EventLog()
        var answererLog = EventLog()
        XCTAssertTrue(network.progress(until: {
            offererLog.drain(offerer, now: network.now)
            answererLog.drain(answerer, now: network.now)
            return offerer.isConnected && answerer.isConnected
        }, limit: network.now + .seconds(10)), "\(offererLog.failures) \(answererLog.failures)")
        XCTAssertEqual(offerer.stats(now: network.now).ice.selectedLocalType, .relay)

        let frames = (0..<10).map { PeerLossRecoveryTests.vp8Frame(index: $0, size: 2_500, keyframe: $0 == 0) }
        for frame in frames {
            XCTAssertTrue(offerer.send(frame, mid: "1", now: network.now))
            network.progress(for: .milliseconds(33))
        }
        network.progress(for: .milliseconds(200))
        answererLog.drain(answerer, now: network.now)
        XCTAssertEqual(answererLog.frames["1"]?.map(\.data), frames.map(\.bytes))
        XCTAssertGreaterThan(turn.relayedToClients, 30)
        XCTAssertEqual(answerer.stats(now: network.now).malformed.total, 0)
    }
}
