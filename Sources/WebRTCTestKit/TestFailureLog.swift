import Foundation
import XCTest

/// Each running test's first failure message (XCTest tells observers, not the test), and
/// how many interop cells it has started: what `InteropCell` writes at the test's end.
final class TestFailureLog: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared = TestFailureLog()

    private let lock = NSLock()
    private var observing = false
    private var failures: [ObjectIdentifier: String] = [:]
    private var cells: [ObjectIdentifier: Int] = [:]

    /// Starts observing (once per process).
    func start() {
        let first = lock.withLock {
            defer { observing = true }
            return !observing
        }
        if first { XCTestObservationCenter.shared.addTestObserver(self) }
    }

    /// A test object's address may be reused: nothing from before its start counts.
    func testCaseWillStart(_ testCase: XCTestCase) { forget(testCase) }

    /// Its teardown blocks, which write its cells, have run.
    func testCaseDidFinish(_ testCase: XCTestCase) { forget(testCase) }

    func testCase(_ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?, atLine lineNumber: Int) {
        let place = filePath.map { " (\(URL(fileURLWithPath: $0).lastPathComponent):\(lineNumber))" } ?? ""
        lock.withLock {
            if failures[ObjectIdentifier(testCase)] == nil { failures[ObjectIdentifier(testCase)] = description + place }
        }
    }

    func firstFailure(of test: XCTestCase) -> String? { lock.withLock { failures[ObjectIdentifier(test)] } }

    func nextCellIndex(for test: XCTestCase) -> Int {
        lock.withLock {
            defer { cells[ObjectIdentifier(test), default: 0] += 1 }
            return cells[ObjectIdentifier(test), default: 0]
        }
    }

    /// Drops what was kept for `test`.
    private func forget(_ test: XCTestCase) {
        lock.withLock {
            failures[ObjectIdentifier(test)] = nil
            cells[ObjectIdentifier(test)] = nil
        }
    }
}
