import RTP
import EventLoop
import Foundation
import Media
import Metrics
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// `rtcswarm run` against the real Janus 1.1.2: echo peers set up through the Janus
/// adapter, media both ways through the EchoTest, every figure measured (issue 5, 6).
final class JanusRunTests: XCTestCase {
    /// Janus 1.1.2 on loopback, answering, with its WebSocket transport on when asked;
    /// stopped at the end of the test.
    /// The report's warnings but the encoders falling behind real time, which says how busy
    /// this machine was (other builds, other tests), not what Janus did (issue 21 item 15).
    private static func warningsNotAboutLoad(_ report: RunReport) -> [String] {
        (report.warnings ?? []).filter { !$0.contains("the encoders fell behind real time") }
    }

    func startJanus(webSocket: Bool = false) throws -> JanusServer {
        try JanusServer.startAnswering(webSocket: webSocket)
    }

    /// The URL a run's Janus target gets: the HTTP API, or the WebSocket transport.
    private func url(_ janus: JanusServer, _ transport: JanusTransport) -> String {
        transport == .http ? "http://127.0.0.1:\(janus.port)/janus" : "ws://127.0.0.1:\(janus.webSocketPort ?? 0)"
    }

    /// Runs `count` echo peers sending `codec` video for `seconds` against `janus` over
    /// `transport`, sampling its admin API with `adminSecret`, with `timeline`'s actions and
    /// the group's `data` channels.
    func runEchoPeers(_ janus: JanusServer, count: Int, seconds: Int, codec: String = "vp8", transport: JanusTransport = .http,
                      adminSecret: String = JanusConfiguration.adminSecret, timeline: String = "[]",
                      data: String? = nil) throws -> (report: RunReport, outcome: ScenarioRunner.Outcome) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("janus-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let text = """
        { name: "janus-echo", duration_s: \(seconds),
          target: { kind: "janus", url: "\(url(janus, transport))",
                    janus: { plugin: "echotest", admin_url: "http://127.0.0.1:\(janus.adminPort)/admin", admin_secret: "\(adminSecret)" } },
          groups: [{ role: "echo", count: \(count), arrival: { rate_per_s: 10 },
                     media: { video: { codec: "\(codec)", resolution: "320x180", bitrate_kbps: 300 } }\(data.map { ", data: \($0)" } ?? "") }],
          timeline: \(timeline),
          thresholds: ["failed_peers == 0"] }
        """
        return ScenarioRunner(loaded: try ScenarioLoader.load(text: text), options: .init(folder: out, version: "test", progress: { _ in })).run()
    }

    func testEchoPeersRunThroughJanusEchoTestAndMeasureTheirStreams() throws {
        try assertEchoPeersRun(codec: .vp8)
    }

    /// The EchoTest is asked for H.264 (`videocodec`) and echoes it.
    func testH264EchoPeersRunThroughJanusEchoTest() throws {
        try assertEchoPeersRun(codec: .h264)
    }

    /// The same peers set up over Janus's WebSocket transport instead of the long poll.
    func testEchoPeersRunOverJanussWebSocketTransport() throws {
        try assertEchoPeersRun(codec: .vp8, transport: .webSocket)
    }

    /// Two echo peers in `codec` + Opus for 5 s: each gets its whole stream back in that
    /// codec, at its size, at 30 fps, without loss; Janus's admin API counts their sessions.
    private func assertEchoPeersRun(codec: Codec, transport: JanusTransport = .http) throws {
        let role = transport == .http ? "`rtcswarm run` echo peers (EchoTest)" : "`rtcswarm run` echo peers over WebSocket (ws://)"
        let cell = InteropRecorder.cell(self, target: "Janus", role: role, codec: Self.cellCodec(codec))
        let janus = try startJanus(webSocket: transport != .http)
        defer { janus.stop() }
        let seconds = 5
        let (report, outcome) = try runEchoPeers(janus, count: 2, seconds: seconds, codec: codec.rawValue.lowercased(), transport: transport)
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { $0.failureReason ?? "ok" })")
        XCTAssertEqual(peers.count, 2)
        for peer in peers {
            XCTAssertEqual(peer.outcome, .completed, peer.failureReason ?? "")
            XCTAssertNotNil(peer.phases["setup_ms"])
            let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" }, "Janus echoed video back")
            Self.assertWhole(video, codec: codec, resolution: "320x180", seconds: seconds, setupMs: peer.phases["setup_ms"])
            print("janus echo \(codec) \(peer.id): setup \(peer.phases["setup_ms"] ?? -1) ms, \(video.framesReceived) frames, \(video.fps) fps, loss \(video.lossPct) %, resolutions \(video.resolutions)")
        }
        // Janus's admin API, sampled on the run's time axis: one session per echo peer.
        let sessions = report.cells[0].serverSamples.compactMap { $0.values["sessions"] }
        XCTAssertGreaterThan(sessions.count, 2, "sampled every second")
        XCTAssertEqual(sessions.max(), 2)
        XCTAssertEqual(Self.warningsNotAboutLoad(report), [])
        if transport == .http {
            // Janus's own name for itself, from /janus/info (Debian's package: 1.1.x).
            XCTAssertEqual(report.targetVersion?.hasPrefix("Janus 1."), true, report.targetVersion ?? "no version")
        } else {
            // Nothing asks the WebSocket port for /info, so there is no version and no complaint.
            XCTAssertNil(report.targetVersion)
        }
    }

    /// An ICE restart at 2 s of a 6 s EchoTest call over HTTP: rtcswarm's offer with new
    /// credentials goes in an EchoTest message, Janus answers with new ones of its own (an
    /// answer keeping the old ufrag fails the peer), the call is connected again
    /// (`ice_restart_ms`, in the record and the cell's histogram), and the echo stays whole
    /// to the end: 30 fps, no loss.
    func testAnIceRestartThroughJanusEchoTestConnectsAgainAndTheEchoGoesOn() throws {
        try assertIceRestartThroughEchoTest(transport: .http)
    }

    /// The same over Janus's WebSocket transport.
    func testAnIceRestartThroughJanusEchoTestOverWebSocketConnectsAgain() throws {
        try assertIceRestartThroughEchoTest(transport: .webSocket)
    }

    private func assertIceRestartThroughEchoTest(transport: JanusTransport) throws {
        let role = "ICE restart: `rtcswarm run` echo peer re-offers (EchoTest\(transport == .http ? "" : ", ws://"))"
        let cell = InteropRecorder.cell(self, target: "Janus", role: role, codec: Self.cellCodec(.vp8))
        let janus = try startJanus(webSocket: transport != .http)
        defer { janus.stop() }
        let seconds = 6
        let (report, outcome) = try runEchoPeers(janus, count: 1, seconds: seconds, transport: transport,
                                                 timeline: "[{ at_s: 2, action: 'ice.restart' }]")
        cell.measured(report)
        let peer = try XCTUnwrap(report.cells.first?.peers.first)
        XCTAssertEqual(outcome, .passed, peer.failureReason ?? "ok")
        XCTAssertEqual(peer.outcome, .completed, peer.failureReason ?? "")
        let ms = try XCTUnwrap(peer.phases["ice_restart_ms"], "the peer never connected again")
        let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" }, "Janus echoed video back")
        print("Janus EchoTest ICE restart (\(transport)): ice_restart_ms \(ms), lost meanwhile \(peer.phases["ice_restart_lost_packets"] ?? -1); "
              + "video \(video.framesReceived) frames, \(video.fps) fps, loss \(video.lossPct) %, freezes \(video.freezeCount) (\(video.freezeMs) ms)")
        XCTAssertGreaterThan(ms, 0)
        XCTAssertLessThan(ms, 3000)
        XCTAssertEqual(peer.phases["ice_restart_lost_packets"], 0)
        Self.assertWhole(video, codec: .vp8, resolution: "320x180", seconds: seconds, setupMs: peer.phases["setup_ms"])
        XCTAssertEqual(report.cells[0].metrics.histograms[.iceRestartMs]?.count, 1)
    }

    /// The interop matrix's name for `codec` with Opus: "VP8+Opus", "H.264+Opus".
    private static func cellCodec(_ codec: Codec) -> String {
        (codec == .h264 ? "H.264" : codec.rawValue) + "+Opus"
    }

    /// A received video stream that is whole: `codec`, every frame at `resolution`, no
    /// loss, and 30 fps for the `seconds` the peer lived less its setup (`setupMs`) and
    /// half a second for its arrival and first key frame.
    private static func assertWhole(_ video: StreamRecord, codec: Codec, resolution: String, seconds: Int, setupMs: Double?,
                                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(video.codec, codec.rawValue, file: file, line: line)
        XCTAssertEqual(video.resolutions.keys.sorted(), [resolution], file: file, line: line)
        XCTAssertEqual(video.resolutionSurvival, 100, file: file, line: line)
        XCTAssertEqual(video.lossPct, 0, file: file, line: line)
        XCTAssertEqual(video.fps, 30, accuracy: 2, file: file, line: line)
        let receiving = Double(seconds) - (setupMs ?? 0) / 1000 - 0.5
        XCTAssertGreaterThan(Double(video.framesReceived), 30 * receiving, "30 fps for the run, less setup", file: file, line: line)
        XCTAssertLessThanOrEqual(video.framesReceived, 30 * seconds + 1, file: file, line: line)
    }

    /// A wrong admin secret costs the server-side figures, not the run, and the report
    /// says why in Janus's words.
    func testAWrongAdminSecretIsAWarningInJanussWords() throws {
        InteropRecorder.cell(self, target: "Janus", role: "`rtcswarm run` echo peers (EchoTest)", codec: "VP8+Opus")
        let janus = try startJanus()
        defer { janus.stop() }
        let (report, outcome) = try runEchoPeers(janus, count: 1, seconds: 3, adminSecret: "wrong")
        XCTAssertEqual(outcome, .passed)
        XCTAssertTrue(report.cells[0].serverSamples.isEmpty)
        let warning = try XCTUnwrap(report.warnings?.first)
        XCTAssertTrue(warning.contains("no server-side figures"), warning)
        XCTAssertTrue(warning.contains("Unauthorized request (wrong or missing secret/token)"), warning)
    }

    /// A VideoRoom publisher and two players (subscribers) in Janus's standing room: the
    /// players find the publisher's feed by its stream name and receive its video whole.
    func testVideoRoomPlayersReceiveThePublishersFeed() throws {
        try assertVideoRoomRun(codec: .vp8, room: JanusConfiguration.standingRoom)
    }

    /// An H.264 publisher in a room Janus's configuration lacks creates it for H.264
    /// (`videocodec`); its players receive H.264 at the published size.
    func testH264VideoRoomPlayersReceiveThePublishersFeedInTheRoomItCreated() throws {
        try assertVideoRoomRun(codec: .h264, room: JanusConfiguration.standingRoom + 1)
    }

    /// An H.264 publisher in the standing room, which carries VP8 only: Janus refuses its
    /// video, and the publisher fails saying so rather than publishing audio alone.
    func testAnH264PublisherInAVP8RoomFailsNamingTheRoomsCodec() throws {
        InteropRecorder.cell(self, target: "Janus", role: "`rtcswarm run` VideoRoom publisher in a room without its codec (fails with a reason)",
                             codec: Self.cellCodec(.h264))
        let janus = try startJanus()
        defer { janus.stop() }
        let (report, outcome) = try runVideoRoom(janus, codec: .h264, room: JanusConfiguration.standingRoom, seconds: 3)
        XCTAssertEqual(outcome, .thresholdsFailed)
        let publisher = try XCTUnwrap(report.cells.first?.peers.first { $0.role == "publisher" })
        XCTAssertEqual(publisher.outcome, .failed)
        XCTAssertEqual(publisher.failureReason?.hasPrefix("Janus VideoRoom room 1234 refused our video (H264): the room's videocodec"), true,
                       publisher.failureReason ?? "no reason")
    }

    /// Scenarios/janus-videoroom.json5 with `CODEC`, `ROOM_ID` and `TIMELINE`, two players, for
    /// `seconds`, with `overrides` as `--set` gives them.
    func runVideoRoom(_ janus: JanusServer, codec: Codec = .vp8, room: Int = JanusConfiguration.standingRoom, seconds: Int,
                      timeline: String = "[]", overrides: [String] = []) throws -> (report: RunReport, outcome: ScenarioRunner.Outcome) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("janus-room-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let file = ExternalTool.repositoryRoot.appendingPathComponent("Scenarios/janus-videoroom.json5").path
        let loaded = try ScenarioLoader.load(file: file, environment: [
            "JANUS_URL": "http://127.0.0.1:\(janus.port)/janus", "JANUS_ADMIN_URL": "http://127.0.0.1:\(janus.adminPort)/admin",
            "ROOM_ID": "\(room)", "PLAYERS": "2", "DURATION_S": "\(seconds)", "CODEC": codec.rawValue.lowercased(), "TIMELINE": timeline,
        ], overrides: overrides)
        return ScenarioRunner(loaded: loaded, options: .init(folder: out, version: "test", progress: { _ in })).run()
    }

    /// The publisher restarts ICE at 3 s (its offer again in a VideoRoom `configure`): it is
    /// connected again (`ice_restart_ms`) and its two players receive its video whole
    /// through the restart, to the end.
    func testAVideoRoomPublishersIceRestartKeepsItsPlayersVideoWhole() throws {
        let report = try assertVideoRoomRun(codec: .vp8, room: JanusConfiguration.standingRoom, seconds: 7,
                                            restart: "ICE restart: `rtcswarm run` VideoRoom publisher re-offers (configure), players watch",
                                            timeline: "[{ at_s: 3, group: 0, action: 'ice.restart' }]")
        let publisher = try XCTUnwrap(report.cells.first?.peers.first { $0.role == "publisher" })
        let ms = try XCTUnwrap(publisher.phases["ice_restart_ms"], "the publisher never connected again")
        print("janus videoroom publisher ICE restart: ice_restart_ms \(ms), lost meanwhile \(publisher.phases["ice_restart_lost_packets"] ?? -1)")
        XCTAssertGreaterThan(ms, 0)
        XCTAssertLessThan(ms, 3000)
    }

    /// Scenarios/janus-videoroom.json5 in `codec` in `room` (with `timeline`, recorded as the
    /// cell `restart` when given): two players receive the publisher's video whole, and its audio.
    @discardableResult
    private func assertVideoRoomRun(codec: Codec, room: Int, seconds: Int = 6, restart: String? = nil,
                                    timeline: String = "[]") throws -> RunReport {
        let cell = InteropRecorder.cell(self, target: "Janus", role: restart ?? "`rtcswarm run` VideoRoom publisher + players (janus-videoroom.json5)",
                                        codec: Self.cellCodec(codec))
        let janus = try startJanus()
        defer { janus.stop() }
        let (report, outcome) = try runVideoRoom(janus, codec: codec, room: room, seconds: seconds, timeline: timeline)
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { "\($0.id): \($0.failureReason ?? "ok")" })")
        let players = peers.filter { $0.role == "player" }
        XCTAssertEqual(players.count, 2)
        for player in players {
            XCTAssertEqual(player.outcome, .completed, player.failureReason ?? "")
            let video = try XCTUnwrap(player.streams.first { $0.kind == "video" }, "Janus forwarded the feed")
            // Players start a second after the publisher.
            Self.assertWhole(video, codec: codec, resolution: "640x360", seconds: seconds - 1, setupMs: player.phases["setup_ms"])
            XCTAssertNotNil(player.streams.first { $0.kind == "audio" })
            print("janus videoroom \(codec) \(player.id): \(video.framesReceived) frames, \(video.fps) fps, loss \(video.lossPct) %, setup \(player.phases["setup_ms"] ?? -1) ms, plis \(video.plis), resolutions \(video.resolutions)")
        }
        XCTAssertEqual(Self.warningsNotAboutLoad(report), [])
        return report
    }

    func testJanusKilledMidRunFailsEveryPeerWithAReasonAndTheRunEndsOnTime() throws {
        // The adapter's long poll is how a Janus session notices its server is gone.
        try assertKilledMidRun(transport: .http) { reason in
            XCTAssertTrue(reason.hasPrefix("Janus long poll failed"), reason)
            XCTAssertTrue(reason.contains("Connection refused"), reason)
        }
    }

    func testJanusKilledMidRunOverWebSocketFailsEveryPeerNamingTheClosedSocket() throws {
        // Over the WebSocket transport the socket's end says it at once.
        try assertKilledMidRun(transport: .webSocket) { reason in
            XCTAssertEqual(reason, "Janus closed the WebSocket (code 1006: connection ended without a Close frame)")
        }
    }

    /// Janus killed (SIGKILL) two seconds into an eight-second run: the run still ends on
    /// time, every peer is reported failed with a reason that names what went wrong, and
    /// the media received before the crash is kept in the report.
    private func assertKilledMidRun(transport: JanusTransport, reasonIsRight: (String) -> Void) throws {
        let role = transport == .http ? "`rtcswarm run` echo peers, Janus killed mid-run (every peer fails with a reason)"
            : "`rtcswarm run` echo peers over WebSocket, Janus killed mid-run (every peer fails with a reason)"
        InteropRecorder.cell(self, target: "Janus", role: role, codec: "VP8+Opus")
        let janus = try startJanus(webSocket: transport != .http)
        defer { janus.stop() }
        let killer = Thread {
            Thread.sleep(forTimeInterval: 2)
            janus.signal(SIGKILL)
        }
        killer.start()
        let started = Date()
        let (report, outcome) = try runEchoPeers(janus, count: 2, seconds: 8, transport: transport)
        let elapsed = Date().timeIntervalSince(started)
        print("janus killed: run took \(elapsed) s; \(report.cells.first?.peers.map { $0.failureReason ?? "completed" } ?? [])")
        XCTAssertLessThan(elapsed, 20, "the run ends on time")
        XCTAssertEqual(outcome, .thresholdsFailed, "failed_peers == 0 cannot hold")
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(peers.count, 2)
        for peer in peers {
            XCTAssertEqual(peer.outcome, .failed)
            reasonIsRight(peer.failureReason ?? "")
            let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" }, "the echo before the crash is reported")
            XCTAssertGreaterThan(video.framesReceived, 20)
        }
    }
}
