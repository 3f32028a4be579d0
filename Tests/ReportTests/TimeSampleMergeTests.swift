@testable import Report
import XCTest

/// A merge of shards recomputes each second's loss and frame rate from the shards' counts:
/// the whole run's figure, not the mean of the shards' percentages.
final class TimeSampleMergeTests: XCTestCase {
    private func second(expected: Int?, lost: Int?, lossPct: Double?, fps: Double?, streams: Int?, nacks: Double) -> TimeSample {
        var sample = TimeSample(tS: 3, connectingPeers: 1, connectedPeers: 10, failedPeers: 0, receiveKbps: 900, sendKbps: 800, lagP99Ms: 4,
                                lossPct: lossPct, nacksPerS: nacks, fps: fps)
        (sample.packetsExpected, sample.packetsLostFirstPass, sample.liveVideoStreams) = (expected, lost, streams)
        return sample
    }

    func testLossAndFrameRateAreTheWholeRunsNotTheMeanOfTheShards() {
        // Shard A: 10 of 1,000 lost (1 %), 2 streams at 30 fps; shard B: 150 of 3,000 (5 %), 6 streams at 20 fps.
        let a = second(expected: 1_000, lost: 10, lossPct: 1, fps: 30, streams: 2, nacks: 4)
        let b = second(expected: 3_000, lost: 150, lossPct: 5, fps: 20, streams: 6, nacks: 30)
        let merged = a.adding(b)
        XCTAssertEqual(merged.lossPct, 4, "160 of 4,000 packets, where the mean of the shards' figures says 3 %")
        XCTAssertEqual(merged.fps, 22.5, "180 frames a second over 8 streams")
        XCTAssertEqual([merged.packetsExpected, merged.packetsLostFirstPass, merged.liveVideoStreams], [4_000, 160, 8])
        XCTAssertEqual(merged.nacksPerS, 34)
        XCTAssertEqual(merged.connectedPeers, 20)
        XCTAssertEqual(merged.receiveKbps, 1_800)
    }

    func testASecondWithoutPacketsOrVideoInOneShardTakesTheOthers() {
        let quiet = second(expected: 0, lost: 0, lossPct: nil, fps: nil, streams: 0, nacks: 0)
        let busy = second(expected: 500, lost: 25, lossPct: 5, fps: 24, streams: 3, nacks: 2)
        let merged = quiet.adding(busy)
        XCTAssertEqual(merged.lossPct, 5)
        XCTAssertEqual(merged.fps, 24)
        XCTAssertNil(quiet.adding(quiet).lossPct, "no packet expected anywhere: no loss figure, not 0 %")
    }

    func testAnOlderShardWithoutCountsKeepsTheFigureItHas() {
        let older = second(expected: nil, lost: nil, lossPct: 2, fps: 28, streams: nil, nacks: 1)
        let newer = second(expected: 1_000, lost: 40, lossPct: 4, fps: 20, streams: 1, nacks: 1)
        XCTAssertEqual(older.adding(newer).lossPct, 2)
        XCTAssertEqual(older.adding(newer).fps, 28)
    }
}
