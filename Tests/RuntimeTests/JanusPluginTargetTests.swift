@testable import Runtime
import Media
import RTCBase
import Scenario
import Signaling
import XCTest

/// What a Janus peer asks its plugin for, from the scenario: the codec it sends reaches
/// the EchoTest body and the VideoRoom it creates.
final class JanusPluginTargetTests: XCTestCase {
    /// The target of a valid scenario with a `role` group (the loader checks the pair).
    private func target(_ janus: String, role: String = "publisher") throws -> Target {
        let text = """
        { name: "t", duration_s: 1, target: { kind: "janus", url: "http://127.0.0.1:8088/janus", janus: \(janus) },
          groups: [{ role: "\(role)", count: 1 }] }
        """
        return try ScenarioLoader.load(text: text).scenario.target
    }

    func testEchoPeersAskTheEchoTestForTheirVideoCodec() throws {
        let echo = try target(#"{ plugin: "echotest" }"#, role: "echo")
        XCTAssertEqual(try JanusPlugin.forPeer(target: echo, role: .echo, stream: "s", display: "d", video: .h264, groupIndex: 0),
                       .echoTest(videoCodec: "h264"))
        XCTAssertEqual(try JanusPlugin.forPeer(target: echo, role: .echo, stream: "s", display: "d", video: .vp8, groupIndex: 0),
                       .echoTest(videoCodec: "vp8"))
        XCTAssertEqual(try JanusPlugin.forPeer(target: echo, role: .echo, stream: "s", display: "d", video: nil, groupIndex: 0),
                       .echoTest(videoCodec: nil), "audio only: Janus picks")
    }

    func testAPublisherAsksForARoomCarryingItsVideoCodec() throws {
        let named = try target(#"{ plugin: "videoroom", room_id: 4321 }"#)
        XCTAssertEqual(try JanusPlugin.forPeer(target: named, role: .publisher, stream: "cam", display: "g0-0", video: .h264, groupIndex: 0),
                       .videoRoomPublisher(room: 4321, createOptions: [.init("videocodec", "h264")], display: "g0-0",
                                           feed: JanusPlugin.feedID(forStream: "cam")))
        let unnamed = try target(#"{ plugin: "videoroom" }"#)
        XCTAssertEqual(try JanusPlugin.forPeer(target: unnamed, role: .publisher, stream: "cam", display: "g0-0", video: .vp9, groupIndex: 0),
                       .videoRoomPublisher(room: nil, createOptions: [.init("videocodec", "vp9")], display: "g0-0", feed: nil))
    }

    func testPlayersSubscribeToTheirStreamsFeedAndNeedARoom() throws {
        let named = try target(#"{ plugin: "videoroom", room_id: 4321 }"#)
        XCTAssertEqual(try JanusPlugin.forPeer(target: named, role: .player, stream: "cam", display: "g1-0", video: .h264, groupIndex: 1),
                       .videoRoomSubscriber(room: 4321, feed: JanusPlugin.feedID(forStream: "cam")))
        let unnamed = try target(#"{ plugin: "videoroom" }"#)
        XCTAssertThrowsError(try JanusPlugin.forPeer(target: unnamed, role: .player, stream: "cam", display: "g1-0", video: nil, groupIndex: 1)) {
            XCTAssertEqual("\($0)", "groups[1]: Janus VideoRoom players need target.janus.room_id")
        }
    }
}
