import RTCBase
import RTP
import RTPSession
import XCTest

/// SendStream's judgement of RTX (RFC 4588): a receiver that keeps NACKing packets it was
/// already sent as RTX (Pion 3.1.56 discards RTX) makes RTX ineffective; with fallback
/// (`rtx: auto`) the next resends are plain, without it (`rtx: on`) they stay RTX.
final class RtxFallbackTests: XCTestCase {
    private static let media: UInt32 = 0x1111
    private static let rtx = SendStream.Rtx(ssrc: 0x2222, payloadType: 97)
    private static let suppression = Duration.milliseconds(20)

    private func ms(_ value: Int64) -> Instant { Instant(nanoseconds: value * 1_000_000) }

    /// A video stream that sent 100 packets; returns it and their sequence numbers.
    private func stream(rtx: SendStream.Rtx? = rtx, fallback: Bool = true) -> (SendStream, [UInt16]) {
        var generator = SeededGenerator(seed: 7)
        var stream = SendStream(configuration: .init(ssrc: Self.media, payloadType: 96, clockRate: 90_000, rtx: rtx,
                                                     cacheCapacity: 512, rtxFallback: fallback), using: &generator)
        var sequences: [UInt16] = []
        for index in 0..<100 {
            sequences.append(stream.nextSequenceNumber)
            _ = stream.makePacket(RtpPayload(bytes: [UInt8(index)], marker: true), mediaTimestamp: UInt32(index) * 3000, now: ms(Int64(index)))
        }
        return (stream, sequences)
    }

    /// (SSRC, payload type, the original sequence number) of each resend.
    private func resent(_ packets: [[UInt8]]) throws -> [(ssrc: UInt32, payloadType: UInt8, original: UInt16)] {
        try packets.map { bytes in
            let packet = try RtpPacket(parsing: bytes)
            let payload = Array(packet.payload)
            let original = packet.ssrc == Self.rtx.ssrc ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : packet.sequenceNumber
            return (packet.ssrc, packet.payloadType, original)
        }
    }

    func testReceiverThatRenacksEveryRtxResendGetsPlainResendsAfterTenPackets() throws {
        var (stream, sequences) = stream()
        let lost = Array(sequences[10..<20])
        let first = try resent(stream.answerNack(lost, now: ms(200), suppression: Self.suppression))
        XCTAssertEqual(first.map(\.ssrc), Array(repeating: Self.rtx.ssrc, count: 10))
        XCTAssertEqual(first.map(\.original), lost)
        XCTAssertFalse(stream.counters.rtxIneffective)
        XCTAssertEqual(stream.counters.recovery, .rtx)

        // 100 ms later the same ten again: each one resent as RTX and NACKed anew.
        let second = try resent(stream.answerNack(lost, now: ms(300), suppression: Self.suppression))
        XCTAssertEqual(second.map(\.ssrc), Array(repeating: Self.rtx.ssrc, count: 10), "judged after the NACK is answered")
        XCTAssertEqual(stream.counters.rtxResentPackets, 10)
        XCTAssertEqual(stream.counters.rtxRenacked, 10)
        XCTAssertTrue(stream.counters.rtxIneffective)

        let third = try resent(stream.answerNack(lost, now: ms(400), suppression: Self.suppression))
        XCTAssertEqual(third.map(\.ssrc), Array(repeating: Self.media, count: 10), "plain: same SSRC")
        XCTAssertEqual(third.map(\.payloadType), Array(repeating: 96, count: 10))
        XCTAssertEqual(third.map(\.original), lost, "plain: same sequence numbers")
        XCTAssertEqual(stream.counters.retransmissions, 30)
        XCTAssertEqual(stream.counters.rtxRetransmissions, 20)
        XCTAssertEqual(stream.counters.recovery, .plain)
    }

    func testReceiverThatLosesOneRtxResendInTenKeepsRtx() throws {
        var (stream, sequences) = stream()
        let lost = Array(sequences[10..<40])
        _ = stream.answerNack(lost, now: ms(200), suppression: Self.suppression)
        // Three of the thirty RTX packets were lost on the way: only those come back.
        let again = try resent(stream.answerNack([lost[3], lost[13], lost[23]], now: ms(300), suppression: Self.suppression))
        XCTAssertEqual(again.map(\.ssrc), Array(repeating: Self.rtx.ssrc, count: 3))
        XCTAssertEqual(stream.counters.rtxResentPackets, 30)
        XCTAssertEqual(stream.counters.rtxRenacked, 3)
        XCTAssertFalse(stream.counters.rtxIneffective)
        XCTAssertEqual(stream.counters.recovery, .rtx)
    }

    func testFewerThanTenRtxPacketsAreNotJudged() {
        var (stream, sequences) = stream()
        let lost = Array(sequences[10..<19])
        _ = stream.answerNack(lost, now: ms(200), suppression: Self.suppression)
        _ = stream.answerNack(lost, now: ms(300), suppression: Self.suppression)
        XCTAssertEqual(stream.counters.rtxRenacked, 9)
        XCTAssertFalse(stream.counters.rtxIneffective, "9 of 9 renacked, but 9 is below the minimum")
    }

    func testRenackWhileTheResendIsInFlightIsNeitherAnsweredNorCounted() {
        var (stream, sequences) = stream()
        let lost = Array(sequences[10..<30])
        _ = stream.answerNack(lost, now: ms(200), suppression: Self.suppression)
        XCTAssertTrue(stream.answerNack(lost, now: ms(210), suppression: Self.suppression).isEmpty)
        XCTAssertEqual(stream.counters.rtxRenacked, 0)
        XCTAssertFalse(stream.counters.rtxIneffective)
    }

    func testWithoutFallbackIneffectiveRtxIsReportedButKept() throws {
        var (stream, sequences) = stream(fallback: false)
        let lost = Array(sequences[10..<20])
        for at: Int64 in [200, 300] { _ = stream.answerNack(lost, now: ms(at), suppression: Self.suppression) }
        XCTAssertTrue(stream.counters.rtxIneffective)
        let third = try resent(stream.answerNack(lost, now: ms(400), suppression: Self.suppression))
        XCTAssertEqual(third.map(\.ssrc), Array(repeating: Self.rtx.ssrc, count: 10))
        XCTAssertEqual(stream.counters.recovery, .rtx)
    }

    func testStreamWithoutRtxResendsPlainAndNeverJudgesRtx() throws {
        var (stream, sequences) = stream(rtx: nil)
        let lost = Array(sequences[10..<30])
        for at: Int64 in [200, 300] {
            XCTAssertEqual(try resent(stream.answerNack(lost, now: ms(at), suppression: Self.suppression)).map(\.ssrc),
                           Array(repeating: Self.media, count: 20))
        }
        XCTAssertEqual(stream.counters.rtxRetransmissions, 0)
        XCTAssertEqual(stream.counters.rtxRenacked, 0)
        XCTAssertFalse(stream.counters.rtxIneffective)
        XCTAssertEqual(stream.counters.recovery, .plain)
    }
}
