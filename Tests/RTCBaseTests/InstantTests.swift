import RTCBase
import XCTest

final class InstantTests: XCTestCase {
    func testArithmeticWithDurations() {
        let start = Instant(nanoseconds: 1_000)
        let later = start + .milliseconds(20)
        XCTAssertEqual(later.nanoseconds, 20_001_000)
        XCTAssertEqual(later - start, .milliseconds(20))
        XCTAssertEqual(later.milliseconds(since: start), 20, accuracy: 1e-9)
        XCTAssertTrue(start < later)
        XCTAssertEqual((later - .microseconds(1)).nanoseconds, 20_000_000)
    }

    func testDurationNanosecondsSaturates() {
        XCTAssertEqual(Duration.seconds(Int64.max).nanoseconds, .max)
        XCTAssertEqual(Duration.seconds(-3).nanoseconds, -3_000_000_000)
        XCTAssertEqual(Duration.microseconds(1500).milliseconds, 1.5)
    }
}
