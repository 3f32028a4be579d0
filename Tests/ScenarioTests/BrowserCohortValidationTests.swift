import Scenario
import XCTest

/// `groups[].client: "chromium"`: which targets and settings a browser cohort takes, and
/// that its peers are planned apart from the workers'.
final class BrowserCohortValidationTests: XCTestCase {
    static let cohort = """
    {
      name: "t", duration_s: 10,
      target: { kind: "srs", url: "http://127.0.0.1:1985", srs: { api: "whip-whep" } },
      groups: [
        { role: "publisher", count: 1 },
        { role: "player", count: 3, arrival: { rate_per_s: 2 } },
        { role: "player", client: "chromium", count: 4, start_s: 1, arrival: { rate_per_s: 4 } },
      ],
    }
    """

    private func message(set overrides: [String]) -> String? {
        do {
            _ = try ScenarioLoader.load(text: Self.cohort, overrides: overrides)
            return nil
        } catch {
            return error.description
        }
    }

    func testEachUnsupportedUseIsRefusedNamingTheKey() {
        let cases: [([String], String)] = [
            (["target={kind: 'builtin-room'}", "groups[0].role=pair", "groups[1].role=pair", "groups[2].role=pair"],
             "groups[2].client: \"chromium\" publishes or plays on srs, whip, whep and janus targets and echoes on janus, not builtin-room; for a call with "
             + "Chromium use role \"pair\" with partner \"chromium\" on a builtin-room target"),
            (["groups[2].count=17"], "groups[2].count: 17 Chromium peers in one group: at most 16 (one browser runs them all); split them into groups"),
            (["groups[2].ice={profile: 'rfc8445'}"],
             "groups[2].ice: Chromium runs its own WebRTC stack, which rtcswarm does not configure; remove ice from this group "
             + "(impair the network itself to impair Chromium: docs/scenarios.md, browser cohort)"),
            (["groups[2].reconnect={attempts: 1}"],
             "groups[2].reconnect: Chromium runs its own WebRTC stack, which rtcswarm does not configure; remove reconnect from this group "
             + "(impair the network itself to impair Chromium: docs/scenarios.md, browser cohort)"),
            (["groups[2].arrival={stages: [{duration_s: 2, target: 4}]}"], "groups[2].arrival.stages: Chromium peers arrive at a rate only; use rate_per_s"),
            (["groups[0].client=chromium", "groups[0].media={video: {codec: 'h265'}}"],
             "groups[0].media.video.codec: Chromium encodes vp8, vp9, h264 and av1, not h265"),
            (["groups[2].client=firefox"], "groups[2].client: \"firefox\" is not one of rtcswarm, chromium"),
            (["timeline=[{at_s: 2, group: 2, action: 'leave'}]"],
             "timeline[0].group: groups[2] is run by Chromium, which the timeline cannot drive; name rtcswarm groups only (\"all\" leaves Chromium groups out)"),
        ]
        for (overrides, expected) in cases {
            XCTAssertEqual(message(set: overrides), expected, "\(overrides)")
        }
        XCTAssertNil(message(set: []), "the cohort as written is valid")
    }

    /// On Janus, Chromium peers speak the HTTP API, as the page does: the EchoTest, or the
    /// VideoRoom in a named room; the WebSocket API is refused naming the key.
    func testOnJanusChromiumSpeaksTheHTTPAPIToTheEchoTestOrANamedVideoRoom() throws {
        let janus = """
        { name: "j", duration_s: 10, target: { kind: "janus", url: "http://127.0.0.1:8088/janus", janus: { plugin: "echotest" } },
          groups: [{ role: "echo", count: 2 }, { role: "echo", client: "chromium", count: 2, media: { video: { codec: "h264" } } }] }
        """
        func message(_ overrides: [String]) -> String? {
            do {
                _ = try ScenarioLoader.load(text: janus, overrides: overrides)
                return nil
            } catch {
                return error.description
            }
        }
        XCTAssertNil(message([]), "Chromium echo peers beside rtcswarm's on the EchoTest")
        XCTAssertEqual(message(["target.url=ws://127.0.0.1:8188"]),
                       "target.url: Chromium peers speak Janus's HTTP API: use its http:// or https:// root (\"ws://127.0.0.1:8188\" is its WebSocket API)")
        XCTAssertNil(message(["target.janus={plugin: 'videoroom', room_id: 1234}", "groups[0].role=publisher", "groups[1].role=player"]),
                     "Chromium players of a VideoRoom feed beside rtcswarm's publisher")
        XCTAssertEqual(message(["target.janus={plugin: 'videoroom'}", "groups[0].role=publisher", "groups[1].role=publisher"]),
                       "target.janus.room_id: Chromium peers on Janus's VideoRoom meet in a named room: give its id "
                       + "(the publishers create it when Janus has none)")
        XCTAssertEqual(message(["groups[1].data={channels: [{label: 'x'}]}"]),
                       "groups[1].data: Chromium runs its own WebRTC stack, which rtcswarm does not configure; remove data from this group "
                       + "(impair the network itself to impair Chromium: docs/scenarios.md, browser cohort)")
    }

    /// The workers run the rtcswarm peers only; the browser's, in start order, are apart.
    func testChromiumPeersArePlannedApartFromTheWorkers() throws {
        let scenario = try ScenarioLoader.load(text: Self.cohort).scenario
        let plan = ExecutionPlan(scenario: scenario, workers: 2)
        XCTAssertEqual(plan.peers.map(\.id), ["g0-0", "g1-0", "g1-1", "g1-2"])
        XCTAssertEqual(plan.peers.map(\.worker), [0, 1, 0, 1], "dealt over the workers as without the cohort")
        XCTAssertEqual(plan.browserPeers.map(\.id), ["g2-0", "g2-1", "g2-2", "g2-3"])
        XCTAssertEqual(plan.browserPeers.map(\.startMs), [1000, 1250, 1500, 1750])
        XCTAssertEqual(Set(plan.browserPeers.map(\.stopMs)), [10_000])
        XCTAssertEqual(Set(plan.browserPeers.compactMap(\.stream)), [StreamSettings.defaultName])
    }
}
