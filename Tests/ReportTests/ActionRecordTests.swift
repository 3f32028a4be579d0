import Metrics
import Report
import XCTest

/// report.json's `cells[].actions` from known stream records, and how summary.md and
/// report.html show them.
final class ActionRecordTests: XCTestCase {
    /// Three receivers: a switch (entry 0) seen at 200 and 600 ms by two (frozen 40 ms longer,
    /// 3 and 4 frames lost), missed by the third;
    /// a stop mute (entry 1) with one replayed frame, its unmute (entry 2) timed at 80
    /// and 120 ms to the first frame and never at the third receiver.
    private func peers() -> [PeerRecord] {
        let firstFrames: [Double?] = [80, 120, nil]
        let switches: [Double?] = [200, 600, nil]
        return (0..<3).map { index in
            var stream = StreamRecord(kind: "video", codec: "vp8", packetsReceived: 10, packetsExpected: 10, lossPct: 0,
                                      residualLossPct: 0, burstMax: 0, jitterMs: 1)
            stream.switches = [ResolutionSwitch(entry: 0, to: "1280x720", switchMs: switches[index], freezeMs: switches[index].map { $0 + 40 },
                                                framesLost: switches[index].map { _ in index + 3 })]
            stream.mutes = [MuteRecord(entry: 1, unmuteEntry: 2, mode: "stop", framesDuring: index == 0 ? 1 : 0,
                                       firstPacketMs: firstFrames[index].map { $0 - 10 }, firstFrameMs: firstFrames[index])]
            return PeerRecord(id: "p\(index)", group: 0, role: "player", startedAtMs: 0, endedAtMs: 10_000, outcome: .completed, streams: [stream])
        }
    }

    private let planned = [ActionRecord(entry: 0, atS: 2, group: "0", action: "video.resolution", peers: 1),
                           ActionRecord(entry: 1, atS: 4, group: "all", action: "video.mute", peers: 1),
                           ActionRecord(entry: 2, atS: 6.5, group: "all", action: "video.unmute", peers: 1)]

    func testEachActionGetsTheFiguresOfItsEntry() throws {
        let actions = ActionRecord.withFigures(planned, from: peers())
        XCTAssertEqual(actions[0].figures, ["switch_ms": ActionFigure(count: 2, p50: 200, p95: 600, max: 600),
                                            "switch_freeze_ms": ActionFigure(count: 2, p50: 240, p95: 640, max: 640),
                                            "switch_frames_lost": ActionFigure(count: 2, p50: 3, p95: 4, max: 4),
                                            "switches_missed": ActionFigure(count: 1)])
        XCTAssertEqual(actions[1].figures, ["frames_while_muted": ActionFigure(count: 1)])
        XCTAssertEqual(actions[2].figures["unmute_first_frame_ms"], ActionFigure(count: 2, p50: 80, p95: 120, max: 120))
        XCTAssertEqual(actions[2].figures["unmute_first_packet_ms"], ActionFigure(count: 2, p50: 70, p95: 110, max: 110))
        XCTAssertEqual(actions[2].figures["unmutes_missed"], ActionFigure(count: 1))
    }

    /// Two shards, the first with receivers p0 and p1, the second with p2: merged, each
    /// action has both shards' peers and its figures over all three receivers.
    func testShardsMergeIntoOneRecordPerAction() throws {
        let all = peers()
        func shard(_ peers: [PeerRecord], acting: Int) -> RunReport {
            var cell = CellReport(label: "default", metrics: MetricSet(), peers: peers)
            cell.actions = ActionRecord.withFigures(planned.map { var action = $0; action.peers = acting; return action }, from: peers)
            return ReportFixtures.report(cells: [cell])
        }
        let merged = try XCTUnwrap(try ReportMerge.merge([shard(Array(all.prefix(2)), acting: 2), shard([all[2]], acting: 1)]).cells.first?.actions)
        XCTAssertEqual(merged.map(\.peers), [3, 3, 3])
        XCTAssertEqual(merged, ActionRecord.withFigures(planned.map { var action = $0; action.peers = 3; return action }, from: all))
        XCTAssertEqual(merged[0].figures["switches_missed"], ActionFigure(count: 1))
    }

    func testTheSummaryTablesAndTheChartsMarkEachAction() throws {
        let samples = (1...10).map { TimeSample(tS: Double($0), connectingPeers: 0, connectedPeers: 3, failedPeers: 0, receiveKbps: 500,
                                                sendKbps: 500, lagP99Ms: 1, fps: 30) }
        var cell = CellReport(label: "default", metrics: MetricSet(), timeSeries: samples, peers: peers())
        cell.actions = ActionRecord.withFigures(planned, from: cell.peers)
        let report = ReportFixtures.report(cells: [cell])
        let summary = MarkdownSummary.render(report)
        XCTAssertTrue(summary.contains("| 2 | 6.5 | all | video.unmute | 1 | `unmute_first_frame_ms` p50 80 / p95 120 / max 120 (2); "
                                       + "`unmute_first_packet_ms` p50 70 / p95 110 / max 110 (2); `unmutes_missed` 1 |"), summary)
        let html = HTMLReport.render(report)
        let chart = html.components(separatedBy: "Received fps per video stream")[1].components(separatedBy: "</svg>")[0]
        // x from 0 to 10 s over 56...624 px: 2 s at 169.6, 4 s at 283.2, 6.5 s at 425.2.
        let lines = chart.components(separatedBy: "<line class=\"marker\" x1=\"").dropFirst().map { $0.components(separatedBy: "\"")[0] }
        XCTAssertEqual(lines, ["169.6", "283.2", "425.2"])
        XCTAssertTrue(chart.contains(">video.unmute</text>"))
        XCTAssertEqual(html.components(separatedBy: "<line class=\"marker\"").count - 1, 3 * 4,
                       "every time-series chart these samples fill: peers, bitrate, fps, loop lag")
    }
}
