import EventLoop
import Metrics
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
        print("timer lateness over \(lateness.count) timers: mean \(lateness.mean ?? 0) ms, max \(lateness.max ?? 0) ms")
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
}

final class TimerLatenessTests: XCTestCase {
    /// A timer asked for a moment already past is due at once: the loop is not late for it.
    func testAPastDeadlineCountsLatenessFromWhenItWasScheduled() throws {
        let loop = try EventLoop()
        var fired = false
        loop.schedule(at: .zero) { fired = true }
        XCTAssertTrue(loop.run(until: { fired }, timeout: .seconds(2)))
        XCTAssertEqual(loop.timerLateness.count, 1)
        XCTAssertLessThan(try XCTUnwrap(loop.timerLateness.max), 100, "not the seconds since boot")
        XCTAssertEqual(loop.stalls.total, 0, "nor a stall")
    }

    /// A timer that keeps the loop busy for 120 ms makes the next timer's wake-up that late:
    /// one stall from the second timer's deadline to the wake-up, noted before the timer runs.
    func testAWakeUpLaterThanTheBoundIsNotedAsAStall() throws {
        let loop = try EventLoop()
        let start = loop.now()
        var stallsSeenBySecond = -1
        loop.schedule(at: start + .milliseconds(1)) { usleep(120_000) }
        loop.schedule(at: start + .milliseconds(10)) { stallsSeenBySecond = loop.stalls.total }
        XCTAssertTrue(loop.run(until: { stallsSeenBySecond >= 0 }, timeout: .seconds(2)))
        XCTAssertEqual(stallsSeenBySecond, 1)
        let stall = try XCTUnwrap(loop.stalls.intervals.first)
        XCTAssertEqual(stall.start, start + .milliseconds(10), "from when the second timer was due")
        XCTAssertGreaterThanOrEqual(stall.end - start, .milliseconds(121), "to the wake-up after the busy one")
    }
}
