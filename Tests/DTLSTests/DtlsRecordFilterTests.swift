@testable import DTLS
import XCTest

final class DtlsRecordFilterTests: XCTestCase {
    /// type, version DTLS 1.2, epoch, sequence number 0, length, then `length` bytes.
    private func record(type: UInt8 = 23, epoch: UInt8, length: Int) -> [UInt8] {
        [type, 0xfe, 0xfd, 0, epoch, 0, 0, 0, 0, 0, 0, UInt8(length >> 8), UInt8(length & 0xff)]
            + [UInt8](repeating: epoch, count: length)
    }

    func testKeepsHandshakeAndFullSizeProtectedRecordsUntouched() {
        let datagram = record(type: 22, epoch: 0, length: 5) + record(epoch: 1, length: 24) + record(epoch: 1, length: 0)
        let (kept, removed) = DtlsRecordFilter.removingShortProtectedRecords(datagram)
        XCTAssertEqual(kept, datagram)
        XCTAssertEqual(removed, 0)
    }

    func testRemovesOnlyTheShortProtectedRecord() {
        let first = record(type: 22, epoch: 0, length: 5)
        let last = record(epoch: 1, length: 30)
        let (kept, removed) = DtlsRecordFilter.removingShortProtectedRecords(first + record(epoch: 1, length: 23) + last)
        XCTAssertEqual(kept, first + last)
        XCTAssertEqual(removed, 1)
    }

    func testLeavesTruncatedTailsForOpenSsl() {
        // A short protected record, then 5 bytes that are not a whole header.
        let (kept, removed) = DtlsRecordFilter.removingShortProtectedRecords(record(epoch: 2, length: 3) + [1, 2, 3, 4, 5])
        XCTAssertEqual(kept, [1, 2, 3, 4, 5])
        XCTAssertEqual(removed, 1)
        // A record whose length runs past the datagram is passed on.
        let overlong = Array(record(epoch: 1, length: 40).prefix(20))
        XCTAssertEqual(DtlsRecordFilter.removingShortProtectedRecords(overlong).records, overlong)
    }
}
