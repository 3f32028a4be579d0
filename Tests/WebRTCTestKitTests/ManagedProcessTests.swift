import Foundation
import WebRTCTestKit
import XCTest

final class ManagedProcessTests: XCTestCase {
    /// A server that prints its hello in two writes: the first line is only handed back
    /// once its newline came, whole (a line cut at the first write broke OWT's JSON hello).
    func testFirstLineWaitsForTheWholeLinePrintedInTwoWrites() throws {
        let shell = URL(fileURLWithPath: "/bin/sh")
        let process = try ManagedProcess(shell, ["-c", #"printf '{"port": '; sleep 0.3; printf '4242}\nsecond\n'; exec sleep 5"#])
        defer { process.stop() }
        XCTAssertEqual(process.firstLine(timeout: 10), #"{"port": 4242}"#)
    }

    func testFirstLineIsNilWhenTheProcessExitsWithoutOne() throws {
        let process = try ManagedProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "printf 'no newline'"])
        defer { process.stop() }
        XCTAssertNil(process.firstLine(timeout: 10))
    }
}
