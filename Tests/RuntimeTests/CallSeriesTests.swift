@testable import Runtime
import Report
import XCTest

/// A call's own seconds come from its running totals the way the run's series does, from
/// the call's start, and only the last `limit` seconds are kept.
final class CallSeriesTests: XCTestCase {
    func testEachSecondIsTheChangeInTheCallsTotalsFromItsStart() throws {
        var series = CallSeries(start: 10)
        var totals = ReceiveTotals(packetsExpected: 100, packetsLostFirstPass: 0, videoFrames: 30, liveVideoStreams: 1)
        totals.liveVideoJitterMs = [1.5]
        series.append(at: 11, totals)
        totals = ReceiveTotals(packetsExpected: 300, packetsLostFirstPass: 20, nacks: 6, videoFrames: 54, freezes: 1, liveVideoStreams: 1)
        (totals.liveVideoJitterMs, totals.liveAudioJitterMs) = ([3, 4], [0.5])
        series.append(at: 12, totals)
        series.append(at: 12, totals)  // no time passed: no second
        XCTAssertEqual(series.seconds, [
            PeerSecond(tS: 11, lossPct: 0, nacksPerS: 0, fps: 30, freezes: 0, videoJitterMs: 1.5),
            PeerSecond(tS: 12, lossPct: 10, nacksPerS: 6, fps: 24, freezes: 1, videoJitterMs: 4, audioJitterMs: 0.5),
        ])
    }

    func testOnlyTheLastSecondsAreKept() {
        var series = CallSeries(start: 0)
        for second in 1...(CallSeries.limit + 5) { series.append(at: Double(second), ReceiveTotals(packetsExpected: second * 10)) }
        XCTAssertEqual(series.seconds.count, CallSeries.limit)
        XCTAssertEqual(series.seconds.first?.tS, 6)
        XCTAssertEqual(series.seconds.last?.tS, Double(CallSeries.limit + 5))
    }
}
