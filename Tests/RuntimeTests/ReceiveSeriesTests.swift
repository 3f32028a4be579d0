@testable import Runtime
import Report
import XCTest

/// The per-second loss, NACK and fps series: from running receive totals (ended peers'
/// records plus live calls), the change over each second, with known counts.
final class ReceiveSeriesTests: XCTestCase {
    func testEachSecondsFiguresComeFromTheChangeInTheTotals() {
        var series = ReceiveSeries()
        // Second 1: 1000 packets expected, none lost, 2 video streams at 30 fps.
        let one = ReceiveTotals(packetsExpected: 1_000, packetsLostFirstPass: 0, nacks: 0, videoFrames: 60, liveVideoStreams: 2)
        // Second 2: 1000 more, 50 of them lost first (5 %), 20 NACKs, frames down to 24 fps.
        let two = ReceiveTotals(packetsExpected: 2_000, packetsLostFirstPass: 50, nacks: 20, videoFrames: 108, freezes: 3, liveVideoStreams: 2)
        // Second 3 (2 s later): nothing expected, no video left.
        let three = ReceiveTotals(packetsExpected: 2_000, packetsLostFirstPass: 50, nacks: 20, videoFrames: 108, freezes: 3, liveVideoStreams: 0)
        func sample(at t: Double, _ totals: ReceiveTotals) -> TimeSample {
            var sample = TimeSample(tS: t, connectingPeers: 0, connectedPeers: 0, failedPeers: 0, receiveKbps: 0, sendKbps: 0, lagP99Ms: 0)
            series.fill(&sample, totals: totals)
            return sample
        }
        let first = sample(at: 1, one)
        XCTAssertEqual(first.lossPct, 0)
        XCTAssertEqual(first.fps, 30)
        let second = sample(at: 2, two)
        XCTAssertEqual(second.lossPct, 5)
        XCTAssertEqual(second.nacksPerS, 20)
        XCTAssertEqual(second.fps, 24)
        XCTAssertEqual(second.freezes, 3)
        // The counts behind them, for a merge of shards.
        XCTAssertEqual([second.packetsExpected, second.packetsLostFirstPass, second.liveVideoStreams], [1_000, 50, 2])
        let third = sample(at: 4, three)
        XCTAssertNil(third.lossPct, "no packet expected: no loss figure, not 0 %")
        XCTAssertEqual(third.nacksPerS, 0)
        XCTAssertNil(third.fps)
        XCTAssertEqual(third.freezes, 0, "freezes that began in the stretch, not the running total")
    }

    func testTheRecordersTotalsAreTheEndedRecordsPlusTheLiveCalls() {
        let recorder = RunRecorder(runStart: .zero)
        let video = StreamRecord(kind: "video", codec: "VP8", packetsReceived: 980, packetsExpected: 1_000, lossPct: 5, residualLossPct: 2,
                                 burstMax: 1, jitterMs: 1, framesReceived: 300, freezeCount: 1, nacks: 12, packetsRecovered: 30, plis: 2)
        let audio = StreamRecord(kind: "audio", codec: "opus", packetsReceived: 475, packetsExpected: 500, lossPct: 5, residualLossPct: 5,
                                 burstMax: 1, jitterMs: 1)
        recorder.finish(PeerRecord(id: "a", group: 0, role: "player", startedAtMs: 0, endedAtMs: 1, outcome: .completed, streams: [video, audio]))
        var live = ReceiveTotals(packetsExpected: 100, packetsLostFirstPass: 1, nacks: 1, videoFrames: 10, liveVideoStreams: 1)
        let token = recorder.addLive { live }
        live.packetsExpected = 200  // read when asked, not when added
        XCTAssertEqual(recorder.receiveTotals, ReceiveTotals(packetsExpected: 1_700, packetsLostFirstPass: 20 + 30 + 25 + 1, nacks: 13, plis: 2,
                                                             videoFrames: 310, freezes: 1, liveVideoStreams: 1))
        recorder.endLive(token)
        XCTAssertEqual(recorder.receiveTotals.liveVideoStreams, 0)
        XCTAssertEqual(recorder.receiveTotals.packetsExpected, 1_500)
    }
}
