import Metrics
import Report
import WebRTCTestKit
import XCTest

/// `rtcswarm run` echo peers with a data channel beside their media through the real
/// Janus 1.1.2 EchoTest (issue 20): the scenario's channel opens, every stamped message
/// comes back, and the echo's figures are the run's.
extension JanusRunTests {
    func testEchoPeersDataChannelMessagesComeBackFromTheEchoTest() throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "`rtcswarm run` echo peers with a data channel (EchoTest)",
                                        codec: "VP8 + data channel")
        let janus = try startJanus()
        defer { janus.stop() }
        let (report, outcome) = try runEchoPeers(janus, count: 2, seconds: 6,
                                                 data: #"{ channels: [{ label: "game" }], message: { size_bytes: 1200, rate_per_s: 20 } }"#)
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { $0.failureReason ?? "ok" }) \(report.invalidReason ?? "")")
        let channels = peers.flatMap { $0.dataChannels ?? [] }
        XCTAssertEqual(channels.count, 2, "one channel per echo peer")
        for channel in channels {
            XCTAssertNotNil(channel.openMs, "\(channel)")
            // 20 a second for the 3 s before the drain, at least; every one echoed, in order.
            XCTAssertGreaterThan(channel.messagesSent, 40, "\(channel)")
            XCTAssertEqual(channel.messagesReceived, channel.messagesSent, "\(channel)")
            XCTAssertEqual(channel.messagesLost, 0)
            XCTAssertEqual(channel.reordered, 0)
            XCTAssertTrue(channel.echoed && channel.inFigures)
        }
        let metrics = try XCTUnwrap(report.cells.first?.metrics)
        XCTAssertEqual(metrics.value(at: MetricAddress(.dcMessagesReceived)), Double(channels.map(\.messagesReceived).reduce(0, +)))
        XCTAssertEqual(metrics.histograms[.dcLatencyMs]?.count, channels.map(\.messagesReceived).reduce(0, +), "half of each echo's round trip")
        XCTAssertEqual(metrics.histograms[.dcOpenMs]?.count, 2)
        XCTAssertNotNil(peers.first?.streams.first { $0.kind == "video" }, "the media went on beside the channel")
        print("janus echo data: \(channels.map { "\($0.messagesSent) sent, \($0.messagesReceived) back, open \($0.openMs ?? -1) ms, mean \($0.latencyMeanMs ?? -1) ms" })")
    }

    /// Janus's VideoRoom relays its publisher's data channel to the subscribers: the two
    /// players, subscribed a second after the publisher began sending, get every message
    /// from their first on, in order, one way (same clock: exact latency).
    func testVideoRoomPlayersReceiveTheirPublishersDataChannel() throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "`rtcswarm run` VideoRoom publisher's data channel to its players",
                                        codec: "VP8 + data channel")
        let janus = try startJanus()
        defer { janus.stop() }
        let (report, outcome) = try runVideoRoom(janus, seconds: 7, overrides: [
            #"groups[0].data={ channels: [{ label: "chat" }], message: { size_bytes: 300, rate_per_s: 20, pattern: "one_way" } }"#,
            #"groups[1].data={ channels: [{ label: "chat" }] }"#,
        ])
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { $0.failureReason ?? "ok" }) \(report.invalidReason ?? "")")
        let sent = try XCTUnwrap(peers.first { $0.role == "publisher" }?.dataChannels?.first).messagesSent
        let players = peers.filter { $0.role == "player" }.compactMap { $0.dataChannels?.first }
        XCTAssertEqual(players.count, 2)
        print("janus videoroom data: publisher sent \(sent); players got \(players.map { "\($0.messagesReceived), lost \($0.messagesLost), open \($0.openMs ?? -1) ms, mean \($0.latencyMeanMs ?? -1) ms" })")
        XCTAssertGreaterThan(sent, 60, "20 a second for the 4 s before the drain")
        for player in players {
            // Joined a second late: what it got began there and ran to the end.
            XCTAssertGreaterThan(player.messagesReceived, sent / 2, "\(player)")
            XCTAssertLessThanOrEqual(player.messagesReceived, sent)
            XCTAssertEqual(player.messagesLost, 0, "reliable and ordered from the first it got")
            XCTAssertEqual(player.reordered, 0)
            XCTAssertFalse(player.echoed)
            XCTAssertLessThan(try XCTUnwrap(player.latencyMeanMs), 100)
        }
        let metrics = try XCTUnwrap(report.cells.first?.metrics)
        XCTAssertEqual(metrics.histograms[.dcLatencyMs]?.count, players.map(\.messagesReceived).reduce(0, +), "one latency per relayed message")
    }
}
