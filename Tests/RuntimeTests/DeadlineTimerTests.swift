import EventLoop
import RTCBase
@testable import Runtime
import XCTest

/// `DeadlineTimer` on a real loop: a deadline that moves later (a receiving peer's, after
/// nearly every packet) keeps its one loop timer, and the host's action still runs once,
/// at the deadline in force; one that moves earlier is kept; none cancels.
final class DeadlineTimerTests: XCTestCase {
    private var loop: EventLoop!
    private var timer: DeadlineTimer!
    private var ran: [Duration] = []
    private var start = Instant(nanoseconds: 0)

    override func setUpWithError() throws {
        loop = try EventLoop()
        timer = DeadlineTimer(loop: loop)
        start = loop.now()
        timer.action = { [unowned self] in ran.append(loop.now() - start) }
    }

    func testADeadlineMovedLaterFiftyTimesRunsOnceAtTheLastWithOneLoopTimer() {
        for step in 0...50 { timer.arm(at: start + .milliseconds(20 + step)) }
        XCTAssertEqual(loop.pendingTimers, 1, "the first loop timer stays; no timer per move")
        XCTAssertTrue(loop.run(until: { !ran.isEmpty }, timeout: .seconds(2)))
        XCTAssertGreaterThanOrEqual(ran[0], .milliseconds(70), "not before the deadline in force")
        loop.run(until: { false }, timeout: .milliseconds(100))
        XCTAssertEqual(ran.count, 1)
        XCTAssertEqual(loop.pendingTimers, 0)
    }

    func testADeadlineMovedEarlierRunsAtTheEarlierOneOnly() {
        timer.arm(at: start + .milliseconds(500))
        timer.arm(at: start + .milliseconds(10))
        XCTAssertEqual(loop.pendingTimers, 1, "the later loop timer is cancelled")
        XCTAssertTrue(loop.run(until: { !ran.isEmpty }, timeout: .seconds(2)))
        XCTAssertLessThan(ran[0], .milliseconds(400))
        loop.run(until: { false }, timeout: .milliseconds(600))
        XCTAssertEqual(ran.count, 1, "the cancelled 500 ms deadline never runs")
    }

    func testNoDeadlineCancelsAndARearmAfterARunWorks() {
        timer.arm(at: start + .milliseconds(10))
        timer.arm(at: nil)
        XCTAssertEqual(loop.pendingTimers, 0)
        loop.run(until: { false }, timeout: .milliseconds(50))
        XCTAssertEqual(ran, [])
        timer.arm(at: loop.now() + .milliseconds(5))
        XCTAssertTrue(loop.run(until: { ran.count == 1 }, timeout: .seconds(2)))
        timer.arm(at: loop.now() + .milliseconds(5))
        XCTAssertTrue(loop.run(until: { ran.count == 2 }, timeout: .seconds(2)), "armed again from its own run")
    }
}
