@testable import SRTP
import XCTest

/// Index estimation (RFC 3711 Appendix A) and the replay window (3.3.2).
final class SrtpIndexTests: XCTestCase {
    func testFirstPacketStartsWithRolloverCounterZero() {
        XCTAssertEqual(RtpIndex.estimate(sequence: 40_000, highest: nil), 40_000)
    }

    func testWrapForwardIncrementsTheRolloverCounter() {
        // highest ROC=3 SEQ=65500; SEQ 10 is just past the wrap.
        XCTAssertEqual(RtpIndex.estimate(sequence: 10, highest: 3 << 16 | 65_500), 4 << 16 | 10)
    }

    func testLatePacketFromBeforeTheWrapKeepsThePreviousRolloverCounter() {
        // highest ROC=4 SEQ=5; SEQ 65530 was sent under ROC 3.
        XCTAssertEqual(RtpIndex.estimate(sequence: 65_530, highest: 4 << 16 | 5), 3 << 16 | 65_530)
    }

    func testNoGuessBelowZero() {
        XCTAssertEqual(RtpIndex.estimate(sequence: 65_530, highest: 5), 65_530)
    }

    func testOrdinaryNeighboursKeepTheRolloverCounter() {
        XCTAssertEqual(RtpIndex.estimate(sequence: 1_001, highest: 2 << 16 | 1_000), 2 << 16 | 1_001)
        XCTAssertEqual(RtpIndex.estimate(sequence: 999, highest: 2 << 16 | 1_000), 2 << 16 | 999)
        XCTAssertEqual(RtpIndex.rolloverCounter(7 << 16 | 3), 7)
    }

    func testReplayWindowAcceptsEachIndexOnceWithin128() {
        var window = ReplayWindow()
        XCTAssertTrue(window.check(1_000))
        window.accept(1_000)
        XCTAssertFalse(window.check(1_000))
        XCTAssertTrue(window.check(999))
        XCTAssertTrue(window.check(873))  // age 127
        XCTAssertFalse(window.check(872))  // age 128
        window.accept(900)
        XCTAssertFalse(window.check(900))
        window.accept(1_100)  // slides by 100: 1000 now age 100, 900 fell out of the window
        XCTAssertFalse(window.check(1_000))
        XCTAssertFalse(window.check(900))
        XCTAssertTrue(window.check(1_050))
        window.accept(5_000)  // a jump beyond the window forgets everything older
        XCTAssertEqual(window.highest, 5_000)
        XCTAssertTrue(window.check(4_990))
        XCTAssertFalse(window.check(1_100))
    }
}
