import Metrics
import Report
import Runtime
import XCTest

/// docs/metrics.md "Whose fault is a bad figure", with known figures.
final class HarnessVerdictTests: XCTestCase {
    private func worker(_ index: Int, p99: Double = 1, max: Double = 5, drops: Int = 0) -> WorkerReport {
        WorkerReport(index: index, peers: 1, cpuPct: 10, rssMB: 50, lagP50Ms: 0.1, lagP99Ms: p99, lagMaxMs: max,
                     socketDrops: drops, sendErrors: 0)
    }

    private func video(freezes: Int, harness: Int) -> StreamRecord {
        StreamRecord(kind: "video", codec: "VP8", packetsReceived: 100, packetsExpected: 100, lossPct: 0, residualLossPct: 0,
                     burstMax: 0, jitterMs: 1, freezeCount: freezes, harnessFreezeCount: harness)
    }

    func testHarnessFreezesAboveTheShareMakeTheRunInvalid() {
        let streams = (0..<9).map { _ in video(freezes: 1, harness: 0) }
        XCTAssertNil(HarnessVerdict.invalidReason(workers: [worker(0)], streams: streams + [video(freezes: 0, harness: 1)]),
                     "1 of 10 is 10 %, not more")
        XCTAssertEqual(HarnessVerdict.invalidReason(workers: [worker(0)], streams: streams + [video(freezes: 0, harness: 2)]),
                       "harness_freeze_count 2 of 11 freezes (18.2 %) came while the receiving worker's event loop was stalled "
                       + "over 50 ms, more than 10 %")
    }

    func testALagMaxAboveTheFreezeMarginInvalidatesARunWithFreezes() {
        let frozen = [video(freezes: 1, harness: 0)]
        XCTAssertNil(HarnessVerdict.invalidReason(workers: [worker(0, max: 150)], streams: frozen), "150 ms is the bound")
        XCTAssertEqual(HarnessVerdict.invalidReason(workers: [worker(0, max: 40), worker(1, max: 180)], streams: frozen),
                       "event-loop lag max 180 ms in worker 1 exceeds 150 ms: a stall that long freezes by itself the streams "
                       + "that worker sends, so the run's 1 freezes (freeze_count) may be the harness's")
        XCTAssertNil(HarnessVerdict.invalidReason(workers: [worker(1, max: 180)], streams: [video(freezes: 0, harness: 0)]),
                     "no freeze for the stall to have made")
    }

    func testTheP99AndSocketDropRulesStand() {
        XCTAssertEqual(HarnessVerdict.invalidReason(workers: [worker(0, p99: 80, max: 90)], streams: []),
                       "event-loop lag p99 80.0 ms in worker 0 exceeds 50 ms")
        XCTAssertEqual(HarnessVerdict.invalidReason(workers: [worker(0), worker(1, drops: 3)], streams: []),
                       "worker 1 dropped 3 datagrams in full socket buffers")
        XCTAssertNil(HarnessVerdict.invalidReason(workers: [worker(0), worker(1)], streams: [video(freezes: 2, harness: 0)]))
    }

    /// Issue 19 item 3: the progress line's worker lag is the report's p99, one estimate.
    /// 99 timers 70 ms late and one 300 ms late: p99 is 70 ms (the old power-of-two
    /// buckets said 131 ms on the line while the report said 70).
    func testTheProgressLinesLagIsTheReportsP99() {
        let recorder = RunRecorder(runStart: .zero)
        for _ in 0..<99 { recorder.record(70, in: .lagMs) }
        recorder.record(300, in: .lagMs)
        XCTAssertEqual(recorder.lagP99Ms, 70, accuracy: 70 * 0.0005)
        XCTAssertEqual(recorder.lagP99Ms, recorder.metrics.value(at: MetricAddress(.lagMs, .p99)))
    }
}
