import Report
import WebRTCTestKit
import XCTest

/// A scenario's data channel toward headless Chromium (issue 20): `groups[].data` on the
/// `chromium-call` scenario; the `/peer` page echoes every message on a channel it did
/// not open, and its `RTCDataChannelStats` count exactly what rtcswarm sent and received.
extension ChromiumCallTests {
    func testAScenariosDataChannelEchoesThroughChromiumAndItsStatsAgree() throws {
        let cell = InteropRecorder.cell(self, target: "Chromium", version: TargetVersion.chromium,
                                        role: "`rtcswarm run` call with a data channel (rtcswarm offers)", codec: "VP8+Opus + data channel")
        let size = 300
        let peer = try run(["DURATION_S": "8"],
                           arguments: ["--set", "groups[0].data={ channels: [{ label: \"game\" }], message: { size_bytes: \(size), rate_per_s: 20 } }"])
        cell.measured(setupMs: peer.phases["setup_ms"])
        let channel = try XCTUnwrap(peer.dataChannels?.first, "rtcswarm's record of its channel")
        let browser = try XCTUnwrap(peer.browser?.dataChannel("game"), "Chromium's stats of the same channel: \(peer.browser?.dataChannels ?? [])")
        print("Chromium data channel: rtcswarm sent \(channel.messagesSent), got \(channel.messagesReceived) back, open \(channel.openMs ?? -1) ms; "
              + "Chromium received \(browser.messagesReceived ?? -1), sent \(browser.messagesSent ?? -1)")
        // 20 a second until the drain 3 s before the end.
        XCTAssertGreaterThan(channel.messagesSent, 40)
        XCTAssertEqual(channel.messagesReceived, channel.messagesSent, "every message came back")
        XCTAssertEqual(channel.messagesLost, 0)
        XCTAssertTrue(channel.echoed && channel.inFigures)
        XCTAssertEqual(browser.messagesReceived, channel.messagesSent, "Chromium's messagesReceived = rtcswarm's sent")
        XCTAssertEqual(browser.messagesSent, channel.messagesReceived, "Chromium's messagesSent = rtcswarm's received")
        XCTAssertEqual(browser.bytesReceived, channel.messagesSent * size)
        XCTAssertNotNil(channel.openMs)
    }
}
