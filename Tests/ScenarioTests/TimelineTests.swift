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
             "timeline[0].action: \"video.blur\" is not one of video.resolution, video.fps, video.bitrate_kbps, video.mute, video.unmute, audio.mute, audio.unmute, impairment, leave, rejoin, churn, ice.restart"),
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
            ("[{ at_s: 1, group: 0, action: 'video.fps', fps: 15, colour: 'red' }]", "timeline[0].colour: unknown key (allowed here: action, after_s, at_s, bitrate_kbps, direction, duration_s, fps, group, mode, profile, rate_per_s, resolution, share_pct, spread_s)"),
        ]
        for (timeline, expected) in cases {
            XCTAssertEqual(message(timeline), expected, timeline)
        }
        XCTAssertEqual(message("[{ at_s: 1, group: 0, action: 'leave' }]", groups: "[{ role: \"pair\", count: 1, partner: \"chromium\" }]"),
                       "timeline[0].action: leave: groups[0] calls a chromium partner, which rtcswarm cannot make leave or come back; only rtcswarm partners can")
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

    /// `leave`, `rejoin` and `churn`: each wrong one gives one message naming its field, the
    /// value and what is allowed; right ones load, for every role.
    func testEachWrongLeaveRejoinOrChurnGivesOneMessageNamingTheField() {
        let cases: [(String, String)] = [
            ("[{ at_s: 1, action: 'rejoin' }]", "timeline[0].after_s: rejoin needs after_s, the seconds until it comes back, e.g. 2"),
            ("[{ at_s: 20, action: 'rejoin', after_s: 10 }]",
             "timeline[0].after_s: 10 must be 0 or more and come back before the run ends (at_s + spread_s + after_s < 30)"),
            ("[{ at_s: 5, spread_s: 10, action: 'rejoin', after_s: 15 }]",
             "timeline[0].after_s: 15 must be 0 or more and come back before the run ends (at_s + spread_s + after_s < 30)"),
            ("[{ at_s: 1, action: 'rejoin', after_s: -1 }]",
             "timeline[0].after_s: -1 must be 0 or more and come back before the run ends (at_s + spread_s + after_s < 30)"),
            ("[{ at_s: 1, action: 'leave', after_s: 2 }]", "timeline[0].after_s: only rejoin comes back; leave takes no after_s"),
            ("[{ at_s: 1, action: 'leave', rate_per_s: 2 }]", "timeline[0].rate_per_s: only churn has a rate; leave takes no rate_per_s"),
            ("[{ at_s: 1, action: 'rejoin', after_s: 1, duration_s: 5 }]", "timeline[0].duration_s: only churn lasts; rejoin takes no duration_s"),
            ("[{ at_s: 2, action: 'churn' }]",
             "timeline[0].rate_per_s: churn needs rate_per_s, the peers (for pairs: calls) replaced a second, e.g. 2"),
            ("[{ at_s: 2, action: 'churn', rate_per_s: 0.01 }]",
             "timeline[0].rate_per_s: 0.01 must be at most 1000 and replace at least one peer in its 28 s (rate_per_s * duration_s >= 1)"),
            ("[{ at_s: 2, action: 'churn', rate_per_s: 5000, duration_s: 10 }]",
             "timeline[0].rate_per_s: 5000 must be at most 1000 and replace at least one peer in its 10 s (rate_per_s * duration_s >= 1)"),
            ("[{ at_s: 2, action: 'churn', rate_per_s: 1, duration_s: 29 }]",
             "timeline[0].duration_s: 29 must be more than 0 and end by the run's end (at_s + duration_s <= 30)"),
            ("[{ at_s: 2, action: 'churn', rate_per_s: 1, share_pct: 10 }]",
             "timeline[0].share_pct: churn picks its peers by rate_per_s; leave share_pct out"),
            ("[{ at_s: 2, action: 'churn', rate_per_s: 1, spread_s: 3 }]",
             "timeline[0].spread_s: churn spreads its replacements evenly by itself; leave spread_s out"),
            ("[{ at_s: 2, group: 'crowd', action: 'ice.restart' }]",
             "timeline[0].action: ice.restart: groups[1] (role member) makes no call through the room; only pair groups restart ICE"),
            ("[{ at_s: 2, group: 'nobody', action: 'leave' }]",
             "timeline[0].group: names no group; use a group's index (0 to 1), its name, or \"all\""),
        ]
        for (timeline, expected) in cases {
            XCTAssertEqual(message(timeline), expected, timeline)
        }
        XCTAssertEqual(message("[{ at_s: 1, action: 'ice.restart' }]",
                               groups: "[{ role: \"pair\", count: 1, partner: \"external\" }]",
                               target: #"{ kind: "room", url: "ws://127.0.0.1:9000" }"#),
                       "timeline[0].action: ice.restart: groups[0]'s partner is external, which rtcswarm cannot have answer a new offer; only rtcswarm and chromium partners restart ICE")
        XCTAssertNil(message("[{ at_s: 1, action: 'ice.restart' }]", groups: "[{ role: \"pair\", count: 1, partner: \"chromium\" }]"),
                     "the Chromium /peer page answers a restart")
        do {
            _ = try ScenarioLoader.load(text: """
            { name: "t", duration_s: 10, target: { kind: "srs", url: "http://127.0.0.1:1985" },
              groups: [{ role: "publisher", count: 1 }], timeline: [{ at_s: 1, action: "ice.restart" }] }
            """)
            XCTFail("an SRS target took ice.restart")
        } catch {
            XCTAssertEqual(error.description, "timeline[0].action: ice.restart: target kind srs has no ICE restart in rtcswarm; only pairs through builtin-room or room, and echo and publisher groups on janus, do")
        }
        let janus = #"{ kind: "janus", url: "http://127.0.0.1:8088/janus", janus: { plugin: "videoroom", room_id: 1234 } }"#
        XCTAssertEqual(message("[{ at_s: 1, group: 'viewers', action: 'ice.restart' }]",
                               groups: #"[{ role: "publisher", count: 1, name: "cams" }, { role: "player", count: 2, name: "viewers" }]"#, target: janus),
                       "timeline[0].action: ice.restart: groups[1] (role player) is offered its call by Janus; only echo and publisher groups restart ICE on janus")
        XCTAssertNil(message("[{ at_s: 1, group: 'cams', action: 'ice.restart' }]",
                             groups: #"[{ role: "publisher", count: 1, name: "cams" }, { role: "player", count: 2, name: "viewers" }]"#, target: janus))
        XCTAssertNil(message("[{ at_s: 1, group: 0, action: 'ice.restart' }]"))
        XCTAssertNil(message("[{ at_s: 1, action: 'leave', share_pct: 10 }, { at_s: 2, group: 'crowd', action: 'rejoin', after_s: 3 },"
                             + " { at_s: 3, action: 'churn', rate_per_s: 0.5, duration_s: 20 }]"))
    }

    /// 20 calls, 2 replaced a second for 20 s from 2 s: 40 replacements at even half-second
    /// steps (each call twice, in the seed's order), every replacement's new connection
    /// starting as the old one stops (so the plan's live count never leaves 20), each with
    /// its own id and, for a pair, its own room.
    func testChurnCutsEachCallIntoGenerationsKeepingTheLiveCount() throws {
        let scenario = try ScenarioLoader.load(text: """
        { name: "t", duration_s: 24, seed: 5, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 20, arrival: { rate_per_s: 1000 } }],
          timeline: [{ at_s: 2, action: "churn", rate_per_s: 2, duration_s: 20 }] }
        """).scenario
        let plan = ExecutionPlan(scenario: scenario, workers: 2)
        XCTAssertEqual(plan.peers.count, 120, "20 first calls and 40 replacements, two sides each")
        XCTAssertEqual(Set(plan.peers.map(\.id)).count, 120)
        let callers = plan.peers.filter { $0.side == .caller }
        XCTAssertEqual(Dictionary(grouping: callers, by: \.index).values.map(\.count), Array(repeating: 3, count: 20))
        XCTAssertEqual(callers.filter(\.leavesByTimeline).map(\.stopMs).sorted(), (0..<40).map { 2250 + 500 * Int64($0) })
        XCTAssertTrue(plan.peers.allSatisfy { $0.leftBy == ($0.leavesByTimeline ? 0 : nil) }, "each cut names the churn's entry")
        for left in callers where left.leavesByTimeline {
            let next = try XCTUnwrap(callers.first { $0.index == left.index && $0.generation == left.generation + 1 }, left.id)
            XCTAssertEqual(next.startMs, left.stopMs, next.id)
            if next.generation == 2 { XCTAssertEqual(next.stopMs, 24000, "the last lives to the run's end") }
            XCTAssertEqual(next.room, "room-0-\(next.index)-gen\(next.generation)")
            XCTAssertEqual(next.id, "g0-\(next.index)-caller-gen\(next.generation)")
            XCTAssertEqual(plan.peers.first { $0.id == "g0-\(next.index)-callee-gen\(next.generation)" }?.worker, next.worker)
        }
        for t in stride(from: Int64(100), to: 24000, by: 125) {
            XCTAssertEqual(callers.filter { $0.startMs <= t && t < $0.stopMs }.count, 20, "live calls at \(t) ms")
        }
        XCTAssertTrue(callers.allSatisfy { ExecutionPlan.actions(for: $0, in: scenario).isEmpty }, "the running peers are handed none of it")
    }

    /// `rejoin` cuts the picked members' life at `at_s` and starts a new one `after_s` later;
    /// `leave` ends it for good, and a departure while a slot is away changes nothing.
    func testRejoinComesBackAfterItsDelayAndLeaveEndsForGood() throws {
        let scenario = try ScenarioLoader.load(text: """
        { name: "t", duration_s: 10, seed: 2, target: { kind: "builtin-room", room: { capacity: 4 } },
          groups: [{ role: "member", count: 4 }],
          timeline: [{ at_s: 2, action: "rejoin", share_pct: 50, after_s: 1.5 }, { at_s: 2.5, action: "leave" }, { at_s: 6, action: "leave" }] }
        """).scenario
        let plan = ExecutionPlan(scenario: scenario, workers: 1)
        let byId = Dictionary(uniqueKeysWithValues: plan.peers.map { ($0.id, $0) })
        let rejoined = plan.peers.filter { $0.generation == 1 }
        XCTAssertEqual(rejoined.count, 2)
        for peer in rejoined {
            XCTAssertEqual([peer.startMs, peer.stopMs], [3500, 6000], peer.id)
            XCTAssertEqual(byId["g0-\(peer.index)"]?.stopMs, 2000)
            XCTAssertEqual(peer.room, "room-0-0", "a member comes back to its own room")
        }
        let stayed = plan.peers.filter { $0.generation == 0 && $0.stopMs != 2000 }
        XCTAssertEqual(stayed.map(\.stopMs), [2500, 2500])
        XCTAssertEqual(plan.peers.count, 6)
        XCTAssertTrue(plan.peers.allSatisfy(\.leavesByTimeline))
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
