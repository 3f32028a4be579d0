import RTCBase
import XCTest

final class SsrcTableTests: XCTestCase {
    func testEachSsrcKeepsItsOwnValueUntilRemoved() {
        var table = SsrcTable<Int>()
        XCTAssertNil(table[7])
        table[7] = 70
        table[0xFFFF_FFFF] = 1
        table[0] = 2
        XCTAssertEqual(table[7], 70)
        XCTAssertEqual(table[0xFFFF_FFFF], 1)
        XCTAssertEqual(table[0], 2)
        table[7] = 71
        XCTAssertEqual(table[7], 71, "a second set replaces the value")
        table[0xFFFF_FFFF] = nil
        XCTAssertNil(table[0xFFFF_FFFF])
        XCTAssertEqual(table[7], 71, "removing one leaves the others")
        XCTAssertEqual(table[0], 2)
        XCTAssertNil(table[8])
    }
}
