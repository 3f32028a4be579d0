@testable import Runtime
import XCTest

final class WorkerCPUSeriesTests: XCTestCase {
    private func sample(_ tS: Double, cpu: Double?) -> WorkerSample {
        WorkerSample(tS: tS, connecting: 0, connected: 0, failed: 0, lagP99Ms: 0, cpuSeconds: cpu)
    }

    /// Worker 0 spends 0.25 s of CPU a second, worker 1 0.5 s then 0.1 s: the busiest share
    /// each tick; a tick with no newer sample from a worker keeps that worker's last share,
    /// for 2 s.
    func testTheBusiestWorkersShareOfACoreAndATickWithoutANewSample() {
        var series = WorkerCPUSeries()
        XCTAssertNil(series.busiestPct(at: 1, samples: [0: sample(1, cpu: 1.0), 1: sample(1, cpu: 2.0)]), "one sample each: no figure")
        XCTAssertEqual(try XCTUnwrap(series.busiestPct(at: 2, samples: [0: sample(2, cpu: 1.25), 1: sample(2, cpu: 2.5)])), 50, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(series.busiestPct(at: 3, samples: [0: sample(3, cpu: 1.5), 1: sample(2, cpu: 2.5)])), 50, accuracy: 1e-9,
                       "worker 1's sample of 2 s again: its 50 % stands")
        XCTAssertEqual(try XCTUnwrap(series.busiestPct(at: 4, samples: [0: sample(4, cpu: 1.75), 1: sample(4, cpu: 2.7)])), 25, accuracy: 1e-9,
                       "worker 1: 0.2 s over the 2 s since its last new sample is 10 %, worker 0's 25 % is the busiest")
        XCTAssertEqual(try XCTUnwrap(series.busiestPct(at: 6, samples: [0: sample(4, cpu: 1.75), 1: sample(6, cpu: 2.8)])), 25,
                       accuracy: 1e-9, "worker 0's sample of 4 s is 2 s old: its 25 % still counts (worker 1: 5 %)")
        XCTAssertEqual(try XCTUnwrap(series.busiestPct(at: 7, samples: [0: sample(4, cpu: 1.75), 1: sample(7, cpu: 2.85)])), 5,
                       accuracy: 1e-9, "worker 0 has sent nothing for 3 s: a stalled or finished worker no longer counts")
        var old = WorkerCPUSeries()
        _ = old.busiestPct(at: 1, samples: [0: sample(1, cpu: nil)])
        XCTAssertNil(old.busiestPct(at: 2, samples: [0: sample(2, cpu: nil)]), "an older worker sends no CPU time")
    }
}
