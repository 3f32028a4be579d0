import Foundation
import Scenario
import XCTest

/// The scenario's `timeline`: each wrong entry gives one message naming its field, and the
/// plan picks the share of peers the seed says, spread as asked.
final class TimelineTests: XCTestCase {
    private func message(_ timeline: String, groups: String? = nil) -> String? {
        let text = """
        { name: "t", duration_s: 30, target: { kind: "builtin-room" },
          groups: \(groups ?? "[{ role: \"pair\", count: 4 }, { name: \"crowd\", role: \"member\", count: 10 }]"),
          timeline: \(timeline) }
        """
        do {
            _ = try ScenarioLoader.load(text: text)
            return nil
        } catch {
            return error.description
        }
    }

    func testEachWrongTimelineGivesOneMessageNamingTheField() {
        let cases: [(String, String)] = [
            ("[{ at_s: 1, action: 'video.blur' }]",
             "timeline[0].action: \"video.blur\" is not one of video.resolution, video.fps, video.bitrate_kbps, video.mute, video.unmute, audio.mute, audio.unmute"),
            ("[{ at_s: 30, group: 0, action: 'video.fps', fps: 15 }]",
             "timeline[0].at_s: 30 must be from 0 to less than the run's duration_s (30)"),
            ("[{ at_s: -1, group: 0, action: 'video.fps', fps: 15 }]",
             "timeline[0].at_s: -1 must be from 0 to less than the run's duration_s (30)"),
            ("[{ at_s: 1, group: 0, action: 'video.resolution' }]",
             "timeline[0].resolution: video.resolution needs a resolution, e.g. \"1280x720\""),
            ("[{ at_s: 1, group: 0, action: 'video.resolution', resolution: '641x360' }]",
             "timeline[0].resolution: 641x360 must be even and from 160x90 to 3840x2160"),
            ("[{ at_s: 1, group: 0, action: 'video.fps' }]", "timeline[0].fps: video.fps needs fps, e.g. 15"),
            ("[{ at_s: 1, group: 0, action: 'video.fps', fps: 500 }]", "timeline[0].fps: 500 must be from 1 to 120"),
            ("[{ at_s: 1, group: 0, action: 'video.bitrate_kbps' }]",
             "timeline[0].bitrate_kbps: video.bitrate_kbps needs bitrate_kbps, e.g. 1500"),
            ("[{ at_s: 1, group: 7, action: 'video.fps', fps: 15 }]",
             "timeline[0].group: names no group; use a group's index (0 to 1), its name, or \"all\""),
            ("[{ at_s: 1, group: 'nobody', action: 'video.fps', fps: 15 }]",
             "timeline[0].group: names no group; use a group's index (0 to 1), its name, or \"all\""),
            ("[{ at_s: 1, group: 'crowd', action: 'video.fps', fps: 15 }]",
             "timeline[0].action: video.fps: groups[1] (role member) sends no video; only publisher, pair and echo peers do"),
            ("[{ at_s: 1, action: 'video.fps', fps: 15 }]",
             "timeline[0].action: video.fps: groups[1] (role member) sends no video; only publisher, pair and echo peers do"),
            ("[{ at_s: 1, group: 0, share_pct: 0, action: 'video.fps', fps: 15 }]",
             "timeline[0].share_pct: 0 must be more than 0 and at most 100"),
            ("[{ at_s: 20, group: 0, spread_s: 10, action: 'video.fps', fps: 15 }]",
             "timeline[0].spread_s: 10 must be 0 or more and end before the run does (at_s + spread_s < 30)"),
            ("[{ at_s: 1, group: 0, action: 'video.fps', fps: 15, colour: 'red' }]", "timeline[0].colour: unknown key (allowed here: action, at_s, bitrate_kbps, fps, group, mode, resolution, share_pct, spread_s)"),
        ]
        for (timeline, expected) in cases {
            XCTAssertEqual(message(timeline), expected, timeline)
        }
        XCTAssertEqual(message("[{ at_s: 1, group: 0, action: 'video.fps', fps: 15 }]",
                               groups: "[{ role: \"pair\", count: 1, media: { video: { enabled: false } } }]"),
                       "timeline[0].action: video.fps: groups[0] has video disabled")
    }

    /// Half of 10 calls picked by the seed, spread evenly over 4 s from 2 s; both sides of a
    /// picked call act; a player receives its publisher's size changes.
    func testThePlanPicksTheSeededShareAndSpreadsIt() throws {
        let scenario = try ScenarioLoader.load(text: """
        { name: "t", duration_s: 30, seed: 3, target: { kind: "srs", url: "http://127.0.0.1:1985" },
          groups: [{ role: "publisher", count: 10, stream: { per_publisher: true } },
                   { role: "player", count: 10, stream: { per_publisher: true } }],
          timeline: [{ at_s: 2, group: 0, share_pct: 50, spread_s: 4, action: "video.resolution", resolution: "1280x720" }] }
        """).scenario
        let plan = ExecutionPlan(scenario: scenario, workers: 1)
        let publishers = plan.peers.filter { $0.group == 0 }
        let acting = publishers.compactMap { peer in ExecutionPlan.actions(for: peer, in: scenario).first.map { (peer.index, $0.atMs) } }
        XCTAssertEqual(acting.count, 5)
        XCTAssertEqual(acting.map(\.1).sorted(), [2000, 3000, 4000, 5000, 6000])
        XCTAssertEqual(acting.map(\.0), acting.map(\.0).sorted(), "the plan lists peers in slot order")
        let again = ExecutionPlan(scenario: scenario, workers: 3).peers.filter { $0.group == 0 }
            .filter { !ExecutionPlan.actions(for: $0, in: scenario).isEmpty }.map(\.index)
        XCTAssertEqual(again, acting.map(\.0), "the same seed picks the same peers whatever the worker count")
        for player in plan.peers where player.group == 1 {
            let changes = plan.videoSizeChanges(receivedBy: player, in: scenario)
            let publisher = try XCTUnwrap(publishers.first { $0.stream == player.stream })
            XCTAssertEqual(changes, ExecutionPlan.actions(for: publisher, in: scenario), player.id)
        }
        XCTAssertTrue(ExecutionPlan.actions(for: try XCTUnwrap(plan.peers.first { $0.group == 1 }), in: scenario).isEmpty,
                      "players do not act themselves")
    }
}
