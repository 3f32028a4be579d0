import EventLoop
import Foundation
@testable import Runtime
import XCTest

/// A worker child's standard output carries one `WorkerMessage` per line; anything else
/// written there is counted and named in the report's warnings, never taken for a message.
final class WorkerProcessTests: XCTestCase {
    func testLinesThatAreNotMessagesAreCountedAndTheFirstIsQuoted() throws {
        let loop = try EventLoop()
        let child = try WorkerProcess(index: 3, executable: URL(fileURLWithPath: "/bin/sh"),
                                      arguments: ["-c", "echo 'libfoo: hello'; echo '{\"peer\": 1'; echo; echo '[]'"], loop: loop)
        var messages = 0
        var ended = false
        child.onMessage = { _ in messages += 1 }
        child.onEnd = { ended = true }
        loop.run(until: { ended }, timeout: .seconds(10))
        XCTAssertTrue(ended)
        XCTAssertEqual(messages, 0)
        XCTAssertEqual(child.garbledLines, 3, "the empty line is not counted")
        XCTAssertEqual(child.garbledWarning, "worker 3 wrote 3 line(s) that were not worker messages, the first: libfoo: hello")
    }
}
