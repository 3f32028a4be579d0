import Scenario
import XCTest

/// Mute and unmute in the scenario's `timeline`: each wrong one gives one message naming
/// its field; the plan pairs each mute with the unmute that ends it, for the same peers.
final class TimelineMuteTests: XCTestCase {
    private func load(_ timeline: String, groups: String? = nil) throws -> Scenario {
        try ScenarioLoader.load(text: """
        { name: "t", duration_s: 30, seed: 5, target: { kind: "builtin-room" },
          groups: \(groups ?? "[{ role: \"pair\", count: 10 }, { name: \"crowd\", role: \"member\", count: 2 }]"),
          timeline: \(timeline) }
        """).scenario
    }

    private func message(_ timeline: String, groups: String? = nil) -> String? {
        do {
            _ = try load(timeline, groups: groups)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testEachWrongMuteGivesOneMessageNamingTheField() {
        let cases: [(String, String)] = [
            ("[{ at_s: 1, group: 0, action: 'video.mute', mode: 'silence' }]",
             "timeline[0].mode: \"silence\" is not a mode for video; video.mute takes \"stop\" or \"black\""),
            ("[{ at_s: 1, group: 0, action: 'audio.mute', mode: 'black' }]",
             "timeline[0].mode: \"black\" is not a mode for audio; audio.mute takes \"stop\" or \"silence\""),
            ("[{ at_s: 1, group: 0, action: 'audio.mute', mode: 'quiet' }]",
             "timeline[0].mode: \"quiet\" is not one of stop, black, silence"),
            ("[{ at_s: 1, group: 0, action: 'video.unmute', mode: 'stop' }]",
             "timeline[0].mode: video.unmute takes no mode; the track resumes as it was before its mute"),
            ("[{ at_s: 1, group: 0, action: 'video.fps', fps: 15, mode: 'stop' }]",
             "timeline[0].mode: only mute actions take a mode; video.fps does not"),
            ("[{ at_s: 1, group: 0, action: 'video.mute', fps: 1 }]",
             "timeline[0].fps: video.mute takes no fps; a mute keeps the track's settings"),
            ("[{ at_s: 1, action: 'audio.mute' }]",
             "timeline[0].action: audio.mute: groups[1] (role member) sends no media; only publisher, pair and echo peers do"),
            ("[{ at_s: 31, group: 0, action: 'audio.unmute' }]",
             "timeline[0].at_s: 31 must be from 0 to less than the run's duration_s (30)"),
        ]
        for (timeline, expected) in cases {
            XCTAssertEqual(message(timeline), expected, timeline)
        }
        XCTAssertEqual(message("[{ at_s: 1, group: 0, action: 'audio.mute' }]",
                               groups: "[{ role: \"pair\", count: 1, media: { audio: { enabled: false } } }]"),
                       "timeline[0].action: audio.mute: groups[0] has audio disabled")
        XCTAssertNil(message("[{ at_s: 1, group: 0, action: 'audio.mute', mode: 'silence' }, { at_s: 2, group: 0, action: 'video.mute', mode: 'black' }]"))
    }

    /// A 50 % mute at 2 s and a 50 % unmute at 7 s pick the same 5 calls; a 100 % unmute
    /// of audio with no mute before it opens nothing; a second mute changes the mode.
    func testAnUnmuteEndsTheWindowOfTheMuteOfTheSamePeers() throws {
        let scenario = try load("""
        [{ at_s: 2, group: 0, share_pct: 50, action: "video.mute" },
         { at_s: 1, group: 0, action: "audio.unmute" },
         { at_s: 4, group: 0, share_pct: 50, action: "video.mute", mode: "black" },
         { at_s: 7, group: 0, share_pct: 50, action: "video.unmute" }]
        """)
        let plan = ExecutionPlan(scenario: scenario, workers: 1)
        var muted = 0
        for peer in plan.peers where peer.group == 0 {
            let windows = plan.muteWindows(receivedBy: peer, in: scenario)
            guard !windows.isEmpty else { continue }
            muted += 1
            XCTAssertEqual(windows, [
                MuteWindow(track: .video, mode: .stop, entry: 0, fromMs: 2000, untilMs: 4000, unmuteEntry: nil),
                MuteWindow(track: .video, mode: .black, entry: 2, fromMs: 4000, untilMs: 7000, unmuteEntry: 3),
            ], peer.id)
        }
        XCTAssertEqual(muted, 10, "5 calls, both sides")
    }
}
