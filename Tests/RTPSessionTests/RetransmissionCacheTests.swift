import RTCBase
@testable import RTPSession
import XCTest

final class RetransmissionCacheTests: XCTestCase {
    /// A publisher's video cache holds 512 of these: 24 bytes each, optional or not, where
    /// the plain fields took 40.
    func testAnEntryTakesTwentyFourBytesInTheRing() {
        XCTAssertEqual(MemoryLayout<RetransmissionCache.Entry>.stride, 24)
        XCTAssertEqual(MemoryLayout<RetransmissionCache.Entry?>.stride, 24)
    }

    /// Each flag and the last resend read back as set, apart from the others, and "never
    /// resent" stays apart from an instant at the clock's origin.
    func testFlagsAndTheLastResendAreKeptApart() {
        var entry = RetransmissionCache.Entry(sequenceNumber: 65_535, timestamp: 0xFFFF_FFFF, marker: true, payload: [1, 2, 3])
        XCTAssertEqual([entry.marker, entry.resentAsRtx, entry.renackedAfterRtx], [true, false, false])
        XCTAssertNil(entry.lastResent)
        entry.lastResent = .zero
        XCTAssertEqual(entry.lastResent, .zero)
        entry.resentAsRtx = true
        XCTAssertEqual([entry.marker, entry.resentAsRtx, entry.renackedAfterRtx], [true, true, false])
        entry.renackedAfterRtx = true
        entry.resentAsRtx = false
        XCTAssertEqual([entry.marker, entry.resentAsRtx, entry.renackedAfterRtx], [true, false, true])
        entry.lastResent = nil
        XCTAssertNil(entry.lastResent)
        XCTAssertEqual([Int(entry.sequenceNumber), Int(entry.timestamp)], [65_535, 0xFFFF_FFFF])
        XCTAssertEqual(entry.payload, [1, 2, 3])
        let unmarked = RetransmissionCache.Entry(sequenceNumber: 1, timestamp: 2, marker: false, payload: [])
        XCTAssertFalse(unmarked.marker)
    }

    /// The ring answers for the packets it still holds, and a slot taken by a later packet
    /// answers nothing for the earlier sequence number; marks land on the right packet.
    func testTheRingAnswersOnlyForThePacketsItStillHolds() {
        var cache = RetransmissionCache(capacity: 4)
        XCTAssertNil(cache.entry(0), "nothing stored yet")
        for sequence in UInt16(10)...UInt16(15) {
            cache.store(.init(sequenceNumber: sequence, timestamp: UInt32(sequence) * 3000, marker: sequence == 15, payload: [UInt8(sequence)]))
        }
        XCTAssertNil(cache.entry(10), "slot reused by 14")
        XCTAssertNil(cache.entry(11), "slot reused by 15")
        XCTAssertEqual(cache.entry(12)?.payload, [12])
        XCTAssertEqual(cache.entry(15)?.timestamp, 45_000)
        XCTAssertEqual(cache.entry(15)?.marker, true)
        cache.markResent(13, at: Instant(nanoseconds: 5_000_000), asRtx: true)
        cache.markRenackedAfterRtx(13)
        XCTAssertEqual(cache.entry(13)?.lastResent, Instant(nanoseconds: 5_000_000))
        XCTAssertEqual(cache.entry(13)?.resentAsRtx, true)
        XCTAssertEqual(cache.entry(13)?.renackedAfterRtx, true)
        XCTAssertNil(cache.entry(12)?.lastResent)
        XCTAssertEqual(cache.entry(12)?.resentAsRtx, false)
    }
}
