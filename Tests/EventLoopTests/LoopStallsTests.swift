import EventLoop
import RTCBase
import XCTest

/// The stalled time behind `harness_freeze_count` (docs/metrics.md "Whose fault is a bad
/// figure"), with known intervals in milliseconds.
final class LoopStallsTests: XCTestCase {
    private func at(_ ms: Int64) -> Instant { Instant(nanoseconds: ms * 1_000_000) }

    private func ms(_ duration: Duration) -> Double { duration.milliseconds }

    func testAGapIsStalledForTheTimeItSharesWithTheStretches() {
        let stalls = LoopStalls()
        stalls.note(due: at(1_000), woke: at(1_300))
        stalls.note(due: at(2_000), woke: at(2_060))
        XCTAssertEqual(ms(stalls.stalled(from: at(990), to: at(1_300))), 300, "a freeze ending at the wake-up")
        XCTAssertEqual(ms(stalls.stalled(from: at(1_100), to: at(1_200))), 100, "inside the stall")
        XCTAssertEqual(ms(stalls.stalled(from: at(1_299), to: at(1_600))), 1, "starting just before its end")
        XCTAssertEqual(ms(stalls.stalled(from: at(1_300), to: at(1_600))), 0, "starting at its end")
        XCTAssertEqual(ms(stalls.stalled(from: at(500), to: at(1_000))), 0, "ending where it starts")
        XCTAssertEqual(ms(stalls.stalled(from: at(1_200), to: at(2_400))), 160, "across both")
    }

    func testALatenessAtOrBelowTheBoundIsNoStall() {
        let stalls = LoopStalls()
        stalls.note(due: at(1_000), woke: at(1_050))
        stalls.note(due: at(2_000), woke: at(2_010))
        XCTAssertEqual(stalls.total, 0)
        XCTAssertEqual(ms(stalls.stalled(from: at(900), to: at(2_100))), 0)
        stalls.note(due: at(3_000), woke: at(3_051))
        XCTAssertEqual(stalls.total, 1)
    }

    /// A loop that stays late wakes late again and again: the overlapping stretches are one.
    func testOverlappingStretchesMergeIntoOne() {
        let stalls = LoopStalls()
        stalls.note(due: at(1_000), woke: at(1_080))
        stalls.note(due: at(1_070), woke: at(1_160))
        stalls.note(due: at(1_150), woke: at(1_240))
        XCTAssertEqual(stalls.total, 1)
        XCTAssertEqual(stalls.intervals.map(\.start), [at(1_000)])
        XCTAssertEqual(stalls.intervals.map(\.end), [at(1_240)])
    }

    /// Only the latest stretches are kept: memory stays bounded on a long saturated run.
    func testOnlyTheLatestStretchesAreKept() {
        let stalls = LoopStalls()
        let noted = Int64(LoopStalls.capacity + 10)
        for index in 0..<noted { stalls.note(due: at(index * 1_000), woke: at(index * 1_000 + 100)) }
        XCTAssertEqual(stalls.total, Int(noted))
        XCTAssertEqual(stalls.intervals.count, LoopStalls.capacity)
        XCTAssertEqual(ms(stalls.stalled(from: at(0), to: at(5_000))), 0, "the oldest ten are gone")
        XCTAssertEqual(ms(stalls.stalled(from: at((noted - 1) * 1_000), to: at((noted - 1) * 1_000 + 50))), 50, "the latest is kept")
    }
}
