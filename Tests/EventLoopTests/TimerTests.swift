import EventLoop
import RTCBase
import XCTest

final class TimerTests: XCTestCase {
    func testTimersFireInDeadlineOrderAndNeverEarly() throws {
        let loop = try EventLoop()
        let start = loop.now()
        // Scheduled out of order, with two sharing a deadline (those keep submission order).
        let offsetsMs = [40, 5, 25, 5, 60, 15, 1, 33]
        var fired: [(index: Int, at: Instant)] = []
        for (index, offset) in offsetsMs.enumerated() {
            loop.schedule(at: start + .milliseconds(offset)) { fired.append((index, loop.now())) }
        }
        XCTAssertTrue(loop.run(until: { fired.count == offsetsMs.count }, timeout: .seconds(5)))

        let expectedOrder = offsetsMs.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }.map(\.offset)
        XCTAssertEqual(fired.map(\.index), expectedOrder)
        for (index, at) in fired {
            XCTAssertGreaterThanOrEqual(at, start + .milliseconds(offsetsMs[index]), "timer \(index) fired early")
        }
        let lateness = loop.timerLateness
        XCTAssertEqual(lateness.count, offsetsMs.count)
        print("timer lateness over \(lateness.count) timers: mean \(lateness.meanMilliseconds) ms, max \(lateness.maxMilliseconds) ms")
    }

    func testCancelledTimerDoesNotFire() throws {
        let loop = try EventLoop()
        var fired: [String] = []
        let cancelled = loop.schedule(after: .milliseconds(2)) { fired.append("cancelled") }
        loop.schedule(after: .milliseconds(10)) { fired.append("kept") }
        loop.cancel(cancelled)
        XCTAssertEqual(loop.pendingTimers, 1)
        XCTAssertTrue(loop.run(until: { !fired.isEmpty }, timeout: .seconds(5)))
        XCTAssertEqual(fired, ["kept"])
    }

    func testTimerScheduledFromTimerRunsLater() throws {
        let loop = try EventLoop()
        var chain: [Instant] = []
        func step() {
            chain.append(loop.now())
            if chain.count < 5 { loop.schedule(after: .milliseconds(3), step) }
        }
        loop.schedule(after: .zero, step)
        XCTAssertTrue(loop.run(until: { chain.count == 5 }, timeout: .seconds(5)))
        for (earlier, later) in zip(chain, chain.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, .milliseconds(3))
        }
    }

    func testLatenessPercentilesComeFromBuckets() {
        var stats = LatenessStats()
        for micros in 1...100 { stats.record(nanoseconds: Int64(micros) * 1_000) }
        XCTAssertEqual(stats.count, 100)
        XCTAssertEqual(stats.maxMilliseconds, 0.1, accuracy: 1e-12)
        XCTAssertEqual(stats.meanMilliseconds, 0.0505, accuracy: 1e-12)
        // 50 of 100 values are <= 50 us, inside the 32-64 us bucket.
        XCTAssertEqual(stats.percentileMilliseconds(50), 0.064, accuracy: 1e-12)
        // p99 lands in the 64-128 us bucket, capped at the exact max of 100 us.
        XCTAssertEqual(stats.percentileMilliseconds(99), 0.1, accuracy: 1e-12)
        stats.record(nanoseconds: -5)
        XCTAssertEqual(stats.count, 101, "negative lateness (clock noise) counts as zero")
    }
}

final class TimerLatenessTests: XCTestCase {
    /// A timer asked for a moment already past is due at once: the loop is not late for it.
    func testAPastDeadlineCountsLatenessFromWhenItWasScheduled() throws {
        let loop = try EventLoop()
        var fired = false
        loop.schedule(at: .zero) { fired = true }
        XCTAssertTrue(loop.run(until: { fired }, timeout: .seconds(2)))
        XCTAssertEqual(loop.timerLateness.count, 1)
        XCTAssertLessThan(loop.timerLateness.maxMilliseconds, 100, "not the seconds since boot")
    }
}
