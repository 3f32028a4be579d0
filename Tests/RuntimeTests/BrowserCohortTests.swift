import Foundation
import Report
@testable import Runtime
import Scenario
import Signaling
import XCTest

/// The browser cohort's page plan and how its log lines become records (no browser started).
final class BrowserCohortTests: XCTestCase {
    private func plan(_ target: String, role: String = "player") throws -> (Scenario, ExecutionPlan) {
        let scenario = try ScenarioLoader.load(text: """
        { name: "b", duration_s: 6, target: \(target),
          groups: [{ role: "\(role)", client: "chromium", count: 2, start_s: 1, arrival: { rate_per_s: 2 }, stream: { name: "s1" } }] }
        """).scenario
        return (scenario, ExecutionPlan(scenario: scenario, workers: 1))
    }

    private func configuration(_ target: String, url: String, role: String = "player") throws -> BrowserCohortPage.Configuration {
        let (scenario, plan) = try plan(target, role: role)
        return try BrowserCohort.configuration(plan.browserPeers, group: 0, scenario: scenario, target: try TargetResolver.resolve(url),
                                               runStartEpochMs: 1_000_000)
    }

    /// Each peer posts where an rtcswarm peer of the group would, at its planned times.
    func testEachPeerPostsWhereAnRtcswarmPeerWouldAtItsPlannedTime() throws {
        let whep = try configuration("{ kind: 'srs', url: 'http://127.0.0.1:1985', srs: { api: 'whip-whep' } }", url: "http://127.0.0.1:1985")
        XCTAssertEqual(whep.peers.map(\.api), ["whep", "whep"])
        XCTAssertEqual(whep.peers.first?.url, "http://127.0.0.1:1985/rtc/v1/whep/?app=live&stream=s1&eip=127.0.0.1")
        XCTAssertEqual(whep.peers.map(\.startAt), [1_001_000, 1_001_500])
        XCTAssertEqual(whep.peers.map(\.stopAt), [1_006_000, 1_006_000])
        XCTAssertEqual(whep.peers.map(\.id), ["g0-0", "g0-1"])
        XCTAssertEqual(whep.video?.codec, "video/H264", "SRS takes H.264")

        let rtc = try configuration("{ kind: 'srs', url: 'http://127.0.0.1:1985' }", url: "http://127.0.0.1:1985", role: "publisher")
        XCTAssertEqual(rtc.peers.first?.api, "srs")
        XCTAssertEqual(rtc.peers.first?.url, "http://127.0.0.1:1985/rtc/v1/publish/?eip=127.0.0.1")
        XCTAssertEqual(rtc.peers.first?.srsApi, "http://127.0.0.1:1985/rtc/v1/publish/")
        XCTAssertEqual(rtc.peers.first?.streamUrl, "webrtc://127.0.0.1/live/s1")
        XCTAssertEqual([rtc.video?.width, rtc.video?.height], [640, 360])

        let other = try configuration("{ kind: 'whep', url: 'http://127.0.0.1:8080/whep/{stream}', bearer_token: 't0k' }",
                                      url: "http://127.0.0.1:8080/whep/{stream}")
        XCTAssertEqual(other.peers.first?.url, "http://127.0.0.1:8080/whep/s1")
        XCTAssertEqual(other.peers.first?.token, "t0k")
    }

    /// On Janus each echo peer attaches the EchoTest and sends the body rtcswarm's echo
    /// peers send, asking for the group's codec, to the API root it long-polls.
    func testEchoPeersOnJanusSendTheEchoTestBodyRtcswarmsPeersSend() throws {
        let janus = try configuration("{ kind: 'janus', url: 'http://127.0.0.1:8088/janus', janus: { plugin: 'echotest' } }",
                                      url: "http://127.0.0.1:8088/janus", role: "echo")
        XCTAssertEqual(janus.peers.map(\.api), ["janus", "janus"])
        XCTAssertEqual(janus.peers.first?.url, "http://127.0.0.1:8088/janus")
        XCTAssertEqual(janus.peers.first?.janusPlugin, "janus.plugin.echotest")
        XCTAssertEqual(janus.peers.first?.janusSteps, [.init(body: #"{"audio":true,"video":true,"videocodec":"vp8"}"#, jsep: "offer")])
        XCTAssertEqual(janus.peers.map(\.startAt), [1_001_000, 1_001_500])
        XCTAssertEqual(janus.video?.codec, "video/VP8")
        XCTAssertTrue(janus.audio, "the echo peer sends and gets back Opus too")
        XCTAssertTrue(BrowserCohortPage.html(janus).contains("async function janus(peer, sdp, answerTo)"), "the page does Janus's HTTP API itself")
    }

    /// On Janus's VideoRoom a publisher creates the named room (427, it exists, is fine, and
    /// only a room it made is destroyed), joins as its stream's feed and publishes its offer;
    /// a player joins that feed and starts with its answer: what rtcswarm's peers send.
    func testVideoRoomPeersOnJanusSendWhatRtcswarmsPeersSend() throws {
        let target = "{ kind: 'janus', url: 'http://127.0.0.1:8088/janus', janus: { plugin: 'videoroom', room_id: 4321 } }"
        let feed = JanusPlugin.feedID(forStream: "s1")
        let publisher = try configuration(target, url: "http://127.0.0.1:8088/janus", role: "publisher")
        XCTAssertEqual(publisher.peers.first?.janusPlugin, "janus.plugin.videoroom")
        XCTAssertEqual(publisher.peers.first?.janusSteps, [
            .init(body: #"{"request":"create","room":4321,"videocodec":"vp8"}"#, allowedError: 427, undo: #"{"request":"destroy","room":4321}"#),
            .init(body: #"{"request":"join","ptype":"publisher","room":4321,"display":"g0-0","id":\#(feed)}"#),
            .init(body: #"{"request":"publish","display":"g0-0"}"#, jsep: "offer"),
        ])
        let player = try configuration(target, url: "http://127.0.0.1:8088/janus")
        XCTAssertEqual(player.peers.first?.janusSteps, [
            .init(body: #"{"request":"join","ptype":"subscriber","room":4321,"streams":[{"feed":\#(feed)}]}"#),
            .init(body: #"{"request":"start"}"#, jsep: "answer"),
        ])
    }

    /// The configuration sits in the page as JSON that no `</script>` in a value can end.
    func testThePageCarriesItsConfigurationSafely() throws {
        var configuration = try configuration("{ kind: 'whep', url: 'http://127.0.0.1:8080/whep' }", url: "http://127.0.0.1:8080/whep")
        configuration.peers[0].token = "</script><script>alert(1)</script>"
        let page = BrowserCohortPage.html(configuration)
        XCTAssertEqual(page.components(separatedBy: "</script>").count - 1, 2, "only the page's own two script elements end")
        XCTAssertTrue(page.contains("async function figures(pc, at)"), "the shared getStats reader is in the page")
    }

    private func line(_ json: String) -> Substring {
        let encoded = Data(json.utf8).base64EncodedString()
        return "[9730:9730:1203/114248.344676:INFO:CONSOLE:1] \"rtcswarm-cohort-result \(encoded)\", source: file:///tmp/browser-g2.html (41)"[...]
    }

    func testALogLineBecomesTheBrowsersRecord() throws {
        let stats = #"{"userAgent":"HeadlessChrome/156","streams":[{"direction":"inbound","kind":"video","frames":240,"packets":700}],"dataChannels":[],"iceMs":1.5,"dtlsMs":2.5}"#
        let result = try XCTUnwrap(BrowserPeerResult(logLine: line(
            #"{"id":"g2-1","startedAt":1002250,"endedAt":1010000,"phases":{"signaling_ms":8,"ice_ms":1.5,"dtls_ms":2.5,"setup_ms":20},"stats":\#(stats)}"#)))
        let record = result.record(id: "g2-1", group: 2, role: .player, video: true, runStartEpochMs: 1_000_000)
        XCTAssertEqual(record.outcome, .completed)
        XCTAssertEqual(record.client, "chromium")
        XCTAssertEqual(record.startedAtMs, 2250)
        XCTAssertEqual(record.endedAtMs, 10_000)
        XCTAssertEqual(record.phases, ["signaling_ms": 8, "ice_ms": 1.5, "dtls_ms": 2.5, "setup_ms": 20])
        XCTAssertEqual(record.browser?.stream("inbound", "video")?.frames, 240)

        let noFrames = stats.replacingOccurrences(of: #""frames":240"#, with: #""frames":0"#)
        let silent = try XCTUnwrap(BrowserPeerResult(logLine: line(#"{"id":"g2-1","startedAt":1002250,"phases":{"setup_ms":20},"stats":\#(noFrames)}"#)))
            .record(id: "g2-1", group: 2, role: .player, video: true, runStartEpochMs: 1_000_000)
        XCTAssertEqual([silent.outcome.rawValue, silent.failedPhase, silent.failureReason], ["failed", "media", "Chromium received no video frames"])

        let refused = try XCTUnwrap(BrowserPeerResult(logLine: line(
            #"{"id":"g2-0","startedAt":1001000,"phases":{},"failedPhase":"signaling","error":"WHEP answered HTTP 404: stream not found"}"#)))
            .record(id: "g2-0", group: 2, role: .player, video: true, runStartEpochMs: 1_000_000)
        XCTAssertEqual([refused.outcome.rawValue, refused.failedPhase, refused.failureReason],
                       ["failed", "signaling", "Chromium: WHEP answered HTTP 404: stream not found"])

        let echoed = try XCTUnwrap(BrowserPeerResult(logLine: line(#"{"id":"g2-1","startedAt":1002250,"phases":{"setup_ms":20},"stats":\#(noFrames)}"#)))
            .record(id: "g2-1", group: 2, role: .echo, video: true, runStartEpochMs: 1_000_000)
        XCTAssertEqual(echoed.failureReason, "Chromium received no video frames", "an echo peer is judged on what came back")

        XCTAssertNil(BrowserPeerResult(logLine: "[1:1:INFO:CONSOLE:1] \"rtcswarm-cohort: camera\", source: x"))
        XCTAssertNil(BrowserPeerResult(logLine: "\"rtcswarm-cohort-result bm90IGpzb24=\""), "base64 of something that is not a result")
    }
}
