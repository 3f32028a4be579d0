import RTCBase
import XCTest

final class FIFOTests: XCTestCase {
    func testKeepsOrderAcrossCompaction() {
        var queue = FIFO<Int>()
        var expected = 0
        var next = 0
        for round in 0..<50 {
            for _ in 0..<(100 + round * 7) {
                queue.append(next)
                next += 1
            }
            for _ in 0..<(90 + round * 5) {
                XCTAssertEqual(queue.popFirst(), expected)
                expected += 1
            }
        }
        XCTAssertEqual(queue.count, next - expected)
        XCTAssertEqual(queue.removeAll(), Array(expected..<next))
        XCTAssertTrue(queue.isEmpty)
        XCTAssertNil(queue.popFirst())
    }
}
