import EventLoop
import Glibc
import XCTest

final class InterruptWatcherTests: XCTestCase {
    func testSIGTERMArrivesAsAnEventOnTheLoop() throws {
        let loop = try EventLoop()
        let watcher = try InterruptWatcher(loop: loop)
        var seen: [Int32] = []
        watcher.onSignal = { seen.append($0) }
        // Blocked by the watcher, so it waits in the signalfd instead of ending the process.
        XCTAssertEqual(kill(getpid(), SIGTERM), 0)
        XCTAssertTrue(loop.run(until: { !seen.isEmpty }, timeout: .seconds(5)))
        XCTAssertEqual(seen, [SIGTERM])
    }
}
