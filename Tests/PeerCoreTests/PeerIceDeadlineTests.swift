@testable import PeerCore
import RTCBase
import WebRTCTestKit
import XCTest

/// A `Peer` remembers ICE's deadline between changes to the agent (media packets give ICE
/// nothing to do); the remembered one must always be the agent's own, or consent checks
/// (RFC 7675 5.1) and their expiry would wait for the wrong time.
final class PeerIceDeadlineTests: XCTestCase {
    func testTheRememberedIceDeadlineIsTheAgentsOwnThroughTwentySecondsOfMedia() throws {
        let pair = try PeerPair(offerer: [.audio()], answerer: [.audio()])
        XCTAssertTrue(pair.connect())
        let frames = try MediaFixtures.audio(count: 1000)
        var deadlines = Set<Instant>()
        var checked = 0
        for frame in frames {
            _ = pair.offerer.send(frame, mid: "0", now: pair.network.now)
            pair.network.progress(for: .milliseconds(20))
            pair.drain()
            for peer in [pair.offerer, pair.answerer] {
                var agent = peer.ice  // a copy: asking it changes nothing the peer holds
                let own = agent.pollTimeoutInPlace()
                let given = peer.pollTimeoutWithOwner()
                if let own { XCTAssertLessThanOrEqual(try XCTUnwrap(given).at, own) }
                if given?.owner == .ice {
                    XCTAssertEqual(given?.at, own)
                    checked += 1
                }
                if peer === pair.offerer, let own { deadlines.insert(own) }
            }
        }
        XCTAssertGreaterThan(checked, 100, "ICE owned the deadline often enough to compare")
        XCTAssertGreaterThanOrEqual(deadlines.count, 4, "consent checks every 5 s moved the deadline on")
        XCTAssertTrue(pair.offerer.isConnected && pair.answerer.isConnected, "consent kept both connected")
    }
}
