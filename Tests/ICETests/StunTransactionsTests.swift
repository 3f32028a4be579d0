@testable import ICE
import RTCBase
import STUN
import XCTest

final class StunTransactionsTests: XCTestCase {
    func testRetransmissionScheduleMatchesRfc8489() {
        // RFC 8489 6.2.1: RTO 500 ms, Rc 7, Rm 16: sent at 0, 500, 1500, 3500, 7500,
        // 15500 and 31500 ms; given up at 39500 ms.
        var table = StunTransactions<Int>(rto: .milliseconds(500), maxTransmissions: 7, lastWaitFactor: 16)
        let id = TransactionID(high: 1, low: 1)
        let transmit = Transmit(destination: SocketAddress("127.0.0.1:1")!, payload: [0])
        table.start(id, purpose: 42, transmit: transmit, now: .zero)
        var sends: [Int64] = [0]
        var gaveUpAt: Int64?
        while let deadline = table.nextDeadline {
            let (retransmit, timedOut) = table.expire(now: deadline)
            sends += retransmit.map { _ in deadline.nanoseconds / 1_000_000 }
            if timedOut == [42] { gaveUpAt = deadline.nanoseconds / 1_000_000 }
        }
        XCTAssertEqual(sends, [0, 500, 1500, 3500, 7500, 15500, 31500])
        XCTAssertEqual(gaveUpAt, 39500)
    }

    func testAnsweredTransactionIsNotRetransmitted() {
        var table = StunTransactions<String>(rto: .milliseconds(100), maxTransmissions: 3, lastWaitFactor: 4)
        let id = TransactionID(high: 2, low: 2)
        table.start(id, purpose: "check", transmit: Transmit(destination: SocketAddress("127.0.0.1:1")!, payload: []), now: .zero)
        XCTAssertEqual(table.complete(id)?.purpose, "check")
        XCTAssertNil(table.nextDeadline)
        XCTAssertTrue(table.expire(now: Instant(nanoseconds: 1_000_000_000)).retransmit.isEmpty)
    }

    func testCancelledTransactionStopsRetransmittingButStillMatchesAnswers() {
        var table = StunTransactions<Int>(rto: .milliseconds(500), maxTransmissions: 7, lastWaitFactor: 16)
        let id = TransactionID(high: 3, low: 3)
        table.start(id, purpose: 1, transmit: Transmit(destination: SocketAddress("127.0.0.1:1")!, payload: []), now: .zero)
        table.stopRetransmitting { $0 == 1 }
        // Waits out the full 39.5 s transaction timeout, silently.
        XCTAssertEqual(table.nextDeadline, Instant(nanoseconds: 39_500_000_000))
        XCTAssertNotNil(table.entry(id))
        let (retransmit, timedOut) = table.expire(now: Instant(nanoseconds: 39_500_000_000))
        XCTAssertTrue(retransmit.isEmpty)
        XCTAssertTrue(timedOut.isEmpty)
        XCTAssertNil(table.entry(id))
    }
}
