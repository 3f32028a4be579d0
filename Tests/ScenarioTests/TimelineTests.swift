import Foundation
import Scenario
import XCTest

/// The scenario's `timeline`: each wrong entry gives one message naming its field, and the
/// plan picks the share of peers the seed says, spread as asked.
final class TimelineTests: XCTestCase {
    private func message(_ timeline: String, groups: String? = nil, target: String = #"{ kind: "builtin-room" }"#) -> String? {
        let text = """
        { name: "t", duration_s: 30, target: \(target),
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
             "timeline[0].action: \"video.blur\" is not one of video.resolution, video.fps, video.bitrate_kbps, video.mute, video.unmute, audio.mute, audio.unmute, impairment"),
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
            ("[{ at_s: 1, group: 0, action: 'video.fps', fps: 15, colour: 'red' }]", "timeline[0].colour: unknown key (allowed here: action, at_s, bitrate_kbps, direction, fps, group, mode, profile, resolution, share_pct, spread_s)"),
        ]
        for (timeline, expected) in cases {
            XCTAssertEqual(message(timeline), expected, timeline)
        }
        XCTAssertEqual(message("[{ at_s: 1, group: 0, action: 'video.fps', fps: 15 }]",
                               groups: "[{ role: \"pair\", count: 1, media: { video: { enabled: false } } }]"),
                       "timeline[0].action: video.fps: groups[0] has video disabled")
    }

    /// What a group's role, codec or target cannot do, and the impairment action's own
    /// mistakes: one message each, naming the field and what is allowed.
    func testEachActionTheGroupCannotDoGivesOneMessageNamingTheField() {
        let srs = #"{ kind: "srs", url: "http://127.0.0.1:1985" }"#
        let publishAndPlay = #"[{ role: "publisher", count: 1, media: { video: { codec: "h264" } } }, { role: "player", count: 2 }]"#
        XCTAssertEqual(message("[{ at_s: 1, group: 1, action: 'video.resolution', resolution: '1280x720' }]", groups: publishAndPlay, target: srs),
                       "timeline[0].action: video.resolution: groups[1] (role player) sends no video; only publisher, pair and echo peers do")
        XCTAssertEqual(message("[{ at_s: 4, group: 0, action: 'video.bitrate_kbps', bitrate_kbps: 300 }]",
                               groups: #"[{ role: "pair", count: 2, start_s: 5 }]"#),
                       "timeline[0].at_s: 4 is before groups[0] starts (start_s 5); its peers act from then until the run ends")
        XCTAssertEqual(message("[{ at_s: 2, group: 0, action: 'video.resolution', resolution: '7680x4320' }]"),
                       "timeline[0].resolution: 7680x4320 must be even and from 160x90 to 3840x2160")
        XCTAssertEqual(message("[{ at_s: 2, group: 0, action: 'video.resolution', resolution: '1280x720' }]",
                               groups: #"[{ role: "pair", count: 2, media: { video: { file: "clip.ivf" } } }]"#),
                       "timeline[0].action: video.resolution: groups[0] sends a file as it is; its settings cannot change")
        let scheduled = #"[{ role: "pair", count: 2, impairment: { receive: [{ at_ms: 0, profile: "clean" }, { at_ms: 10000, profile: "3g" }] } }]"#
        let cases: [(String, String?, String)] = [
            ("[{ at_s: 1, group: 0, action: 'impairment' }]", nil, "timeline[0].profile: impairment needs a profile: a preset (clean, 3g, lossy-wifi, congested) or an object such as { loss_pct: 5 }"),
            ("[{ at_s: 1, group: 0, action: 'impairment', profile: { loss_pct: 150 } }]", nil, "timeline[0].profile.loss_pct: must be within 0.0...100.0, got 150.0"),
            ("[{ at_s: 1, group: 0, action: 'impairment', profile: 'lossy' }]", nil, "timeline[0].profile: unknown impairment preset 'lossy'; allowed: clean, 3g, lossy-wifi, congested"),
            ("[{ at_s: 1, group: 0, action: 'impairment', profile: '3g', direction: 'both' }]", nil, "timeline[0].direction: \"both\" is not one of send, receive"),
            ("[{ at_s: 1, group: 0, action: 'impairment', profile: '3g', share_pct: 50 }]", nil, "timeline[0].share_pct: share_pct is not for impairment, which changes every link of its groups at once (it takes at_s, group, profile and direction)"),
            ("[{ at_s: 1, group: 0, action: 'impairment', profile: '3g', resolution: '1280x720' }]", nil, "timeline[0].resolution: resolution is not for impairment, which changes every link of its groups at once (it takes at_s, group, profile and direction)"),
            ("[{ at_s: 1, group: 0, action: 'video.fps', fps: 15, profile: '3g' }]", nil, "timeline[0].profile: only an impairment action takes profile; video.fps does not"),
            ("[{ at_s: 40, group: 0, action: 'impairment', profile: '3g' }]", nil, "timeline[0].at_s: 40 must be from 0 to less than the run's duration_s (30)"),
            ("[{ at_s: 10, group: 0, action: 'impairment', profile: { loss_pct: 5 } }]", scheduled, "timeline[0].at_s: groups[0]'s receive impairment already changes at 10 s; use another second"),
            ("[{ at_s: 5, action: 'impairment', profile: '3g' }, { at_s: 5, group: 0, action: 'impairment', profile: 'clean' }]", nil, "timeline[1].at_s: groups[0]'s receive impairment already changes at 5 s; use another second"),
        ]
        for (timeline, groups, expected) in cases {
            XCTAssertEqual(message(timeline, groups: groups), expected, timeline)
        }
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

    /// A schedule written in the group and the same one written as timeline actions are one
    /// schedule; an action adds its change to the group's own, and is no peer's to do.
    func testAnImpairmentActionIsAChangeInTheGroupsSchedule() throws {
        func load(_ rest: String) throws -> Scenario {
            try ScenarioLoader.load(text: "{ name: 't', duration_s: 30, target: { kind: 'builtin-room' }, \(rest) }").scenario
        }
        let own = try load("""
        groups: [{ role: 'pair', count: 2, impairment: { send: '3g', receive: [{ at_ms: 0, profile: 'clean' }, { at_ms: 4000, profile: { loss_pct: 20 } }] } }]
        """)
        let actions = try load("""
        groups: [{ role: 'pair', count: 2, impairment: { send: '3g' } }],
        timeline: [{ at_s: 4, action: 'impairment', profile: { loss_pct: 20 } }, { at_s: 0, group: 0, action: 'impairment', profile: 'clean' }]
        """)
        let schedule = try XCTUnwrap(actions.impairment(ofGroup: 0))
        XCTAssertEqual(schedule, own.impairment(ofGroup: 0))
        XCTAssertEqual(schedule.receive?.changes.map(\.offset), [.zero, .seconds(4)])
        XCTAssertEqual(schedule.receive?.profile(at: .milliseconds(3999)).lossPct, 0)
        XCTAssertEqual(schedule.receive?.profile(at: .seconds(4)).lossPct, 20)
        let mixed = try load("""
        groups: [{ role: 'pair', count: 2, impairment: { receive: [{ at_ms: 0, profile: 'clean' }, { at_ms: 10000, profile: '3g' }] } }],
        timeline: [{ at_s: 5, action: 'impairment', direction: 'receive', profile: { loss_pct: 2 } }, { at_s: 6, action: 'impairment', direction: 'send', profile: 'congested' }]
        """)
        XCTAssertEqual(mixed.impairment(ofGroup: 0)?.receive?.changes.map(\.offset), [.zero, .seconds(5), .seconds(10)])
        XCTAssertEqual(mixed.impairment(ofGroup: 0)?.send?.changes.map(\.offset), [.seconds(6)])
        XCTAssertEqual(mixed.impairment(ofGroup: 0)?.send?.profile(at: .seconds(5)), .clean)
        let plan = ExecutionPlan(scenario: actions, workers: 1)
        XCTAssertEqual(plan.peers.flatMap { ExecutionPlan.actions(for: $0, in: actions) }, [], "the links carry it, not the peers")
    }
}
