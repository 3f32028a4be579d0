@testable import Runtime
import PeerCore
import RTCBase
import Scenario
import XCTest

/// Every peer of a run has an identity of its own: SSRCs and ICE credentials from its
/// seed, distinct across calls, sides, roles and reconnects, and the same on every run.
final class PeerIdentityTests: XCTestCase {
    private static let transceivers = [PeerTransceiver(mid: "0", kind: .audio, direction: .sendrecv, codecs: [.opus()]),
                                       PeerTransceiver(mid: "1", kind: .video, direction: .sendrecv, codecs: [.vp8()])]

    /// The ufrag and SSRCs in the description `peer` would send.
    private func identity(seed: UInt64, offers: Bool, remoteOffer: String) throws -> (ufrag: String, ssrcs: Set<String>) {
        let configuration = PeerConfiguration(role: offers ? .offerer : .answerer, transceivers: Self.transceivers,
                                              localAddresses: [SocketAddress(ipv4: 127, 0, 0, 1, port: 40_000)], seed: seed)
        let peer = try Peer(configuration: configuration, now: Instant(nanoseconds: 0))
        let sdp: String
        if offers {
            sdp = try peer.createOffer(now: Instant(nanoseconds: 0))
        } else {
            try peer.setRemoteOffer(remoteOffer, now: Instant(nanoseconds: 0))
            sdp = try peer.createAnswer(now: Instant(nanoseconds: 0))
        }
        let lines = sdp.components(separatedBy: "\r\n")
        let ufrag = try XCTUnwrap(lines.first { $0.hasPrefix("a=ice-ufrag:") })
        let ssrcs = Set(lines.filter { $0.hasPrefix("a=ssrc:") }.compactMap { $0.dropFirst(7).split(separator: " ").first.map(String.init) })
        return (ufrag, ssrcs)
    }

    func testAThousandPeersOfARunShareNoSSRCAndNoICECredentials() throws {
        let loaded = try ScenarioLoader.load(text: """
            { name: "ids", duration_s: 10, target: { kind: "builtin-room" },
              groups: [{ role: "pair", count: 500, arrival: { rate_per_s: 1000 } }] }
            """)
        let plan = ExecutionPlan(scenario: loaded.scenario, workers: 2).peers
        XCTAssertEqual(plan.count, 1_000)
        let remoteOffer = try Peer(configuration: PeerConfiguration(role: .offerer, transceivers: Self.transceivers,
                                                                    localAddresses: [SocketAddress(ipv4: 127, 0, 0, 1, port: 40_001)], seed: 99),
                                   now: Instant(nanoseconds: 0)).createOffer(now: Instant(nanoseconds: 0))
        var ufrags: [String: String] = [:]
        var ssrcs: [String: String] = [:]
        // Either side of a call may end up offering (the one told `other_joined` does), and
        // a reconnect is a peer of its own: every combination must be unique.
        for peer in plan {
            for attempt in 0..<2 {
                let seed = PeerFactory.seed(peer, attempt: attempt, base: loaded.scenario.effectiveSeed)
                let name = "\(PeerFactory.id(peer, attempt: attempt)) as \(peer.side == .caller ? "offerer" : "answerer")"
                let found = try identity(seed: seed, offers: peer.side == .caller, remoteOffer: remoteOffer)
                XCTAssertNil(ufrags.updateValue(name, forKey: found.ufrag), "\(name) has the ICE ufrag of another peer")
                for ssrc in found.ssrcs { XCTAssertNil(ssrcs.updateValue(name, forKey: ssrc), "\(name) has an SSRC of another peer") }
            }
        }
        XCTAssertEqual(ufrags.count, 2_000)
        XCTAssertGreaterThanOrEqual(ssrcs.count, 2_000 * 2, "an audio and a video SSRC each")
        // Reproducible: the same plan and seed give the same identity.
        let first = try XCTUnwrap(plan.first)
        let seed = PeerFactory.seed(first, attempt: 0, base: loaded.scenario.effectiveSeed)
        XCTAssertEqual(try identity(seed: seed, offers: true, remoteOffer: remoteOffer).ufrag,
                       try identity(seed: seed, offers: true, remoteOffer: remoteOffer).ufrag)
    }
}
