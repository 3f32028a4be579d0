import EventLoop
import Foundation
import RTCBase
import Synchronization
import XCTest

final class CrossThreadTests: XCTestCase {
    func testWorkFromOtherThreadsRunsOnTheLoopInOrder() throws {
        let loop = try EventLoop()
        let perThread = 1_000
        let results = Mutex<[Int: [Int]]>([:])
        let loopThread = pthread_self()  // run(until:) below runs the loop on this thread
        let threads = (0..<4).map { thread in
            Thread {
                for index in 0..<perThread {
                    loop.execute {
                        XCTAssertTrue(pthread_equal(pthread_self(), loopThread) != 0)
                        results.withLock { $0[thread, default: []].append(index) }
                    }
                }
            }
        }
        threads.forEach { $0.start() }
        XCTAssertTrue(loop.run(until: { results.withLock { $0.values.reduce(0) { $0 + $1.count } } == 4 * perThread },
                               timeout: .seconds(10)))
        results.withLock { byThread in
            for thread in 0..<4 { XCTAssertEqual(byThread[thread], Array(0..<perThread), "thread \(thread) in order") }
        }
    }

    func testStopFromAnotherThreadWakesABlockedLoop() throws {
        let loop = try EventLoop()
        let stopper = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            loop.stop()
        }
        let start = loop.now()
        stopper.start()
        loop.run()  // blocks in epoll_wait with no timers until the eventfd fires
        let waited = loop.now() - start
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(40))
        XCTAssertLessThan(waited, .seconds(5))
    }
}
