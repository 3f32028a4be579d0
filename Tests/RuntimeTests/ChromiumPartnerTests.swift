import Foundation
@testable import Runtime
import Scenario
import XCTest

/// The browser partner's page address and flags, from the scenario (no browser started).
final class ChromiumPartnerTests: XCTestCase {
    private func scenario(_ group: String) throws -> Scenario {
        try ScenarioLoader.load(text: """
        { name: "b", duration_s: 5, target: { kind: "builtin-room", room: { other_joined_event: "otherjoin" } },
          groups: [\(group)] }
        """).scenario
    }

    func testPageAsksForTheCameraRtcswarmSendsAndTheGroupsRooms() throws {
        let scenario = try scenario("{ role: 'pair', partner: 'chromium', count: 2, media: { video: { resolution: '320x180', fps: 15 } } }")
        let url = try ChromiumPartner.pageURL(port: 4321, rooms: ["room-0-0", "room-0-1"], group: scenario.groups[0],
                                              scenario: scenario, groupIndex: 0)
        XCTAssertEqual(url, "http://127.0.0.1:4321/peer?rooms=room-0-0,room-0-1&other_joined=otherjoin&width=320&height=180&fps=15")
    }

    /// A data-only call: the page is told to send neither video nor audio.
    func testNoVideoAndNoAudioAreSaidInTheQuery() throws {
        let scenario = try scenario("{ role: 'pair', partner: 'chromium', count: 1, media: { video: { enabled: false }, audio: { enabled: false } }, "
                                    + "data: { channels: [{ label: 'chat' }] } }")
        let url = try ChromiumPartner.pageURL(port: 80, rooms: ["r"], group: scenario.groups[0], scenario: scenario, groupIndex: 0)
        XCTAssertEqual(url, "http://127.0.0.1:80/peer?rooms=r&other_joined=otherjoin&video=0&audio=0")
    }

    func testFlagsKeepTheBrowserOnLoopbackWithAFakeCameraAtTheGroupsRate() {
        let flags = ChromiumPartner.arguments(profile: URL(fileURLWithPath: "/tmp/p"), fps: 15, page: "http://127.0.0.1:1/peer")
        XCTAssertTrue(flags.contains("--use-fake-device-for-media-stream=fps=15"))
        XCTAssertTrue(flags.contains("--allow-loopback-in-peer-connection"))
        XCTAssertTrue(flags.contains("--disable-features=WebRtcHideLocalIpsWithMdns"), "candidates are addresses, not mDNS names")
        XCTAssertEqual(flags.last, "http://127.0.0.1:1/peer")
    }
}
