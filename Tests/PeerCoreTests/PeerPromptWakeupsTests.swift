import PeerCore
import RTCBase
import XCTest

/// `Peer.needsPromptWakeups`: a peer's datagrams are read as they come while its figures
/// time round trips (setting up, data channels), and may be batched once media flows.
final class PeerPromptWakeupsTests: XCTestCase {
    func testAMediaPeerNeedsPromptWakeupsUntilItIsConnected() throws {
        let pair = try PeerPair(offerer: [.audio(), .video()], answerer: [.audio(), .video()])
        XCTAssertTrue(pair.offerer.needsPromptWakeups)
        XCTAssertTrue(pair.answerer.needsPromptWakeups)
        XCTAssertTrue(pair.connect())
        XCTAssertFalse(pair.offerer.needsPromptWakeups)
        XCTAssertFalse(pair.answerer.needsPromptWakeups)
    }

    func testAPeerWithDataChannelsNeedsPromptWakeupsWhileConnected() throws {
        let pair = try PeerPair(offerer: [.audio()], answerer: [.audio()], dataChannels: true)
        XCTAssertTrue(pair.connect())
        XCTAssertTrue(pair.offerer.isConnected)
        XCTAssertTrue(pair.offerer.needsPromptWakeups)
        XCTAssertTrue(pair.answerer.needsPromptWakeups)
    }
}
