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

    /// Beyond 2^63 attoseconds (about 9.2 s) the count no longer fits 64 bits and takes the
    /// wide division: the same whole nanoseconds, truncated toward zero, up to `Int64`'s bounds.
    func testDurationNanosecondsBeyondSixtyFourBitsOfAttoseconds() {
        XCTAssertEqual(Duration.seconds(30).nanoseconds, 30_000_000_000)
        XCTAssertEqual((Duration.seconds(-30) - .nanoseconds(500)).nanoseconds, -30_000_000_500)
        XCTAssertEqual(Duration(attoseconds: 30_000_000_001_999_999_999).nanoseconds, 30_000_000_001)
        XCTAssertEqual(Duration(attoseconds: -30_000_000_001_999_999_999).nanoseconds, -30_000_000_001)
        XCTAssertEqual(Duration(attoseconds: 1_999_999_999).nanoseconds, 1)
        XCTAssertEqual(Duration(attoseconds: -1_999_999_999).nanoseconds, -1)
        XCTAssertEqual(Duration.nanoseconds(Int64.max).nanoseconds, .max)
        XCTAssertEqual(Duration.nanoseconds(Int64.min).nanoseconds, .min)
        XCTAssertEqual((Duration.nanoseconds(Int64.max) + .nanoseconds(1)).nanoseconds, .max)
        XCTAssertEqual((Duration.nanoseconds(Int64.min) - .nanoseconds(1)).nanoseconds, .min)
        XCTAssertEqual(Duration.seconds(-Int64.max).nanoseconds, .min)
    }
}
