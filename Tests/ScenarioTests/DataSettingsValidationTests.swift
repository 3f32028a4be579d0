import Foundation
@testable import Scenario
import XCTest

final class DataSettingsValidationTests: XCTestCase {
    static let base = """
    { name: "dc", duration_s: 10, target: { kind: "builtin-room" },
      groups: [{ role: "pair", count: 2, media: { video: { enabled: false } },
                 data: { channels: [{ label: "chat" }, { label: "state", ordered: false, max_retransmits: 0, negotiated_id: 7 }],
                         message: { size_bytes: 200, rate_per_s: 10, pattern: "echo" } } }] }
    """

    private func message(_ text: String = base, set overrides: [String] = []) -> String? {
        do {
            _ = try ScenarioLoader.load(text: text, overrides: overrides)
            return nil
        } catch {
            return error.description
        }
    }

    func testDefaultsAreAppliedOnce() throws {
        let group = try ScenarioLoader.load(text: Self.base, overrides: ["groups[0].data.message.size_bytes=64"]).scenario.groups[0]
        let data = try XCTUnwrap(group.resolvedData)
        XCTAssertEqual(data.channels, [.init(label: "chat", ordered: true, reliability: .reliable, negotiatedId: nil),
                                       .init(label: "state", ordered: false, reliability: .maxRetransmits(0), negotiatedId: 7)])
        XCTAssertEqual([data.sizeBytes, data.burstSize], [64, 1])
        XCTAssertEqual(data.ratePerS, 10)
        let bare = try ScenarioLoader.load(text: Self.base.replacingOccurrences(of: "message: { size_bytes: 200, rate_per_s: 10, pattern: \"echo\" }",
                                                                               with: "")).scenario.groups[0].resolvedData
        XCTAssertEqual(bare?.sizeBytes, 200)
        XCTAssertEqual(bare?.ratePerS, 10)
        XCTAssertEqual(bare?.pattern, .echo)
    }

    func testEachMistakeNamesTheFieldTheValueAndWhatIsAllowed() {
        let cases: [([String], String)] = [
            (["groups[0].data.message.pattern=flood"],
             "groups[0].data.message.pattern: \"flood\" is not one of echo, one_way, burst"),
            (["groups[0].data.message.pattern=burst"],
             "groups[0].data.message.burst_size: required for pattern \"burst\": messages sent at once, 2 to 10000"),
            (["groups[0].data.message.burst_size=5"],
             "groups[0].data.message.burst_size: only for pattern \"burst\" (the pattern is \"echo\"); remove it"),
            (["groups[0].data.message.pattern=burst", "groups[0].data.message.burst_size=1"],
             "groups[0].data.message.burst_size: 1 must be from 2 to 10000"),
            (["groups[0].data.message.size_bytes=8"],
             "groups[0].data.message.size_bytes: 8 must be from 16 (the sequence number and send time) to 65536"),
            (["groups[0].data.message.rate_per_s=0"], "groups[0].data.message.rate_per_s: 0 must be more than 0 and at most 10000"),
            (["groups[0].data.channels[1].label=chat"],
             "groups[0].data.channels[1].label: \"chat\" is used by another channel; labels must differ"),
            (["groups[0].data.channels[1].max_packet_life_ms=100"],
             "groups[0].data.channels[1]: max_retransmits and max_packet_life_ms both set; a channel takes at most one (RFC 8831 6.1)"),
            (["groups[0].data.channels[1].max_retransmits=70000"], "groups[0].data.channels[1].max_retransmits: 70000 must be from 0 to 65535"),
            (["groups[0].data.channels[1].negotiated_id=1024"], "groups[0].data.channels[1].negotiated_id: 1024 must be from 0 to 1023"),
            (["groups[0].data.channels[0].negotiated_id=7"],
             "groups[0].data.channels[1].negotiated_id: 7 is used by another channel; ids must differ"),
            // Without audio and video the call carries its data channels alone; without them too it carries nothing.
            (["groups[0].media.audio.enabled=false", "groups[0].data=null"],
             "groups[0].media: a call needs audio, video or data channels: enable media.audio or media.video, or add data"),
        ]
        for (overrides, expected) in cases {
            XCTAssertEqual(message(set: overrides), expected, "\(overrides)")
        }
    }

    func testUnknownKeysAreErrors() {
        let text = Self.base.replacingOccurrences(of: "{ label: \"chat\" }", with: "{ label: \"chat\", reliable: true }")
        XCTAssertEqual(message(text)?.hasPrefix("groups[0].data.channels[0].reliable: unknown key"), true, message(text) ?? "")
    }

    func testTargetsWithoutDataChannelsAreNamed() {
        let srs = """
        { name: "dc-srs", duration_s: 10, target: { kind: "srs", url: "http://127.0.0.1:1985" },
          groups: [{ role: "publisher", count: 1, data: { channels: [{ label: "chat" }] } }] }
        """
        XCTAssertEqual(message(srs), "groups[0].data: target kind \"srs\" cannot carry data channels; use builtin-room, room or tcp-p2p (pairs), or janus (EchoTest echo peers, VideoRoom publishers and players)")
        let members = """
        { name: "dc-members", duration_s: 10, target: { kind: "builtin-room" },
          groups: [{ role: "member", count: 2, data: { channels: [{ label: "chat" }] } }] }
        """
        XCTAssertEqual(message(members), "groups[0].data: data channels are opened by pairs; \"member\" peers cannot open them")
        func janus(_ role: String, _ message: String) -> String {
            let plugin = role == "echo" ? #"{ plugin: "echotest" }"# : #"{ plugin: "videoroom", room_id: 1234 }"#
            return """
            { name: "dc-janus", duration_s: 10, target: { kind: "janus", url: "http://127.0.0.1:8088/janus", janus: \(plugin) },
              groups: [{ role: "\(role)", count: 1, data: { channels: [{ label: "chat" }], message: \(message) } }] }
            """
        }
        XCTAssertNil(message(janus("echo", "{ size_bytes: 65535 }")), "the EchoTest's echo peers carry channels")
        XCTAssertNil(message(janus("publisher", #"{ pattern: "one_way" }"#)), "a VideoRoom publisher's channels reach its players")
        XCTAssertNil(message(janus("player", "{}")))
        XCTAssertEqual(message(janus("player", "{}").replacingOccurrences(of: #"[{ label: "chat" }]"#, with: #"[{ label: "a" }, { label: "b" }]"#)),
                       "groups[0].data.channels: 2 channels: Janus's VideoRoom relays a publisher's messages on one channel named after it; give 1")
        XCTAssertEqual(message(janus("publisher", "{}")),
                       "groups[0].data.message.pattern: Janus's VideoRoom relays a publisher's messages to its players and returns none: use \"one_way\"")
        XCTAssertEqual(message(janus("echo", "{ pattern: \"one_way\" }")),
                       "groups[0].data.message.pattern: Janus's EchoTest returns every message: use \"echo\"")
        XCTAssertEqual(message(janus("echo", "{ size_bytes: 65536 }")),
                       "groups[0].data.message.size_bytes: 65536 is more than Janus relays (65535 B, a 16-bit length)")
    }
}
