import RTCBase
import RTP
import RTPSession
import XCTest

final class NackTests: XCTestCase {
    private func ms(_ value: Int64) -> Instant { Instant(nanoseconds: value * 1_000_000) }

    private func session(now: Instant = .zero) -> RtpSession {
        var session = RtpSession(configuration: .init(cname: "rx", seed: 1, feedbackSsrc: 0x0000_0AAA), now: now)
        session.addReceiveStream(.init(ssrc: 0x0000_0BBB, clockRate: 90_000, nack: true))
        return session
    }

    private func packet(_ sequence: UInt16, ssrc: UInt32 = 0x0BBB) -> RtpPacket {
        var writer = ByteWriter()
        RtpHeader(payloadType: 96, sequenceNumber: sequence, timestamp: 0, ssrc: ssrc).write(payload: [1], to: &writer)
        return try! RtpPacket(parsing: writer.bytes)
    }

    private func drainRtcp(_ session: inout RtpSession) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        while let output = session.pollTransmit() {
            if case .rtcp(let bytes) = output { packets.append(bytes) }
        }
        return packets
    }

    func testGapIsNackedAfterDelayThenRetriedAndGivenUp() {
        var receiver = session()
        for sequence: UInt16 in [65_534, 65_535, 3] { _ = receiver.handleRtp(packet(sequence), now: ms(0)) }
        XCTAssertEqual(receiver.pollTimeout(), ms(10), "first NACK 10 ms after the gap")
        receiver.handleTimeout(now: ms(10))
        XCTAssertEqual(
            drainRtcp(&receiver),
            [[
                0x81, 0xCD, 0x00, 0x03,  // V=2 FMT=1 | PT=205 | length 3
                0x00, 0x00, 0x0A, 0xAA,  // sender SSRC (feedback SSRC, nothing sent)
                0x00, 0x00, 0x0B, 0xBB,  // media SSRC
                0x00, 0x00, 0x00, 0x03,  // PID 0, BLP: 1 and 2
            ]])
        // No RTT known: retry every 100 ms x 1.25.
        XCTAssertEqual(receiver.pollTimeout(), ms(135))
        receiver.handleTimeout(now: ms(100))
        XCTAssertTrue(drainRtcp(&receiver).isEmpty)
        for retry in 1...10 { receiver.handleTimeout(now: ms(10 + 125 * Int64(retry))) }
        let statistics = receiver.receiveStatistics(ssrc: 0x0BBB, now: ms(2000))
        XCTAssertEqual(statistics?.nacksSent, 10, "maxRetries")
        XCTAssertEqual(statistics?.packetsNacked, 30)
        XCTAssertEqual(statistics?.nackGivenUp, 3)
        XCTAssertEqual(statistics?.packetsLost, 3)
    }

    /// The resend window a frame may wait for is the time the generator really NACKs a
    /// packet: the last of its 10 NACKs is given up one retry interval after it was sent.
    func testResendWindowEndsWhenTheLastNackIsGivenUp() {
        var receiver = session()
        XCTAssertEqual(receiver.resendWindow, .milliseconds(1260), "10 ms + 10 x 125 ms without a round trip")
        for sequence: UInt16 in [0, 2] { _ = receiver.handleRtp(packet(sequence), now: ms(0)) }
        for retry in 0..<10 { receiver.handleTimeout(now: ms(10 + 125 * Int64(retry))) }
        XCTAssertEqual(receiver.receiveStatistics(ssrc: 0x0BBB, now: ms(1135))?.nacksSent, 10)
        XCTAssertEqual(receiver.pollTimeout(), ms(1260))
        receiver.handleTimeout(now: ms(1259))
        XCTAssertEqual(receiver.receiveStatistics(ssrc: 0x0BBB, now: ms(1259))?.nackGivenUp, 0, "still awaited")
        receiver.handleTimeout(now: ms(1260))
        XCTAssertEqual(receiver.receiveStatistics(ssrc: 0x0BBB, now: ms(1260))?.nackGivenUp, 1)
        var configuration = NackConfiguration()
        XCTAssertEqual(configuration.resendWindow(roundTripTime: .milliseconds(1)), .milliseconds(210), "retries at least 20 ms apart")
        XCTAssertEqual(configuration.resendWindow(roundTripTime: .milliseconds(40)), .milliseconds(510), "10 + 10 x 50")
        configuration.maxRetries = 3
        XCTAssertEqual(configuration.resendWindow(roundTripTime: .milliseconds(40)), .milliseconds(160))
    }

    /// A packet NACKed before any round trip was known (retry 125 ms) is asked for again at
    /// the pace of the round trip learned meanwhile (8 ms: every 20 ms), and given up
    /// when the resend window at that round trip ends (10 + 10 x 20 ms), which is how long
    /// its frame waits. Before, its second NACK waited the full 125 ms, and a frame whose
    /// packet came on the third was given up 45 ms too early.
    func testARoundTripLearnedMeanwhilePacesPacketsAlreadyNacked() {
        var receiver = session()
        for sequence: UInt16 in [0, 2] { _ = receiver.handleRtp(packet(sequence), now: ms(0)) }
        receiver.handleTimeout(now: ms(10))  // NACK 1, no round trip known
        for sequence: UInt16 in [3, 5] { _ = receiver.handleRtp(packet(sequence), now: ms(11)) }
        receiver.handleTimeout(now: ms(21))  // NACK 4
        _ = receiver.handleRtp(packet(4), now: ms(29))  // its resend: a round trip of 8 ms
        XCTAssertEqual(receiver.roundTripTime, .milliseconds(8))
        XCTAssertEqual(receiver.resendWindow, .milliseconds(210))
        XCTAssertEqual(drainRtcp(&receiver).count, 2)
        while let next = receiver.pollTimeout(), next < ms(210) { receiver.handleTimeout(now: next) }
        XCTAssertEqual(receiver.receiveStatistics(ssrc: 0x0BBB, now: ms(209))?.nackGivenUp, 0, "1 is still awaited")
        XCTAssertEqual(receiver.receiveStatistics(ssrc: 0x0BBB, now: ms(209))?.packetsNacked, 11, "1 at 10, 30, 50 ... 190 ms; 4 once")
        receiver.handleTimeout(now: ms(210))
        XCTAssertEqual(receiver.receiveStatistics(ssrc: 0x0BBB, now: ms(210))?.nackGivenUp, 1)
    }

    func testPaddingOnlyPacketsCountInSequenceButAreNotDelivered() throws {
        var receiver = session()
        var writer = ByteWriter()
        RtpHeader(payloadType: 96, sequenceNumber: 1, timestamp: 0, ssrc: 0x0BBB).write(payload: [], padding: 255, to: &writer)
        let padding = try RtpPacket(parsing: writer.bytes)
        XCTAssertNotNil(receiver.handleRtp(packet(0), now: ms(0)))
        XCTAssertNil(receiver.handleRtp(padding, now: ms(1)))
        XCTAssertNotNil(receiver.handleRtp(packet(2), now: ms(2)))
        receiver.handleTimeout(now: ms(20))
        XCTAssertTrue(drainRtcp(&receiver).isEmpty, "sequence 1 is not missing: no NACK")
        XCTAssertEqual(receiver.counters.paddingOnlyPackets, 1)
        XCTAssertEqual(receiver.receiveStatistics(ssrc: 0x0BBB, now: ms(20))?.packetsLost, 0)
    }

    func testResendAfterNackCountsAsNetworkLossButNotResidual() {
        var receiver = session()
        for sequence: UInt16 in [0, 1, 3, 4, 6, 7] { _ = receiver.handleRtp(packet(sequence), now: ms(0)) }
        _ = receiver.handleRtp(packet(5), now: ms(5))  // reordered: arrives before any NACK
        receiver.handleTimeout(now: ms(10))
        XCTAssertEqual(drainRtcp(&receiver).count, 1)
        XCTAssertNotNil(receiver.handleRtp(packet(2), now: ms(40)))  // the resend
        XCTAssertNil(receiver.handleRtp(packet(2), now: ms(41)), "a second resend is a duplicate")
        let statistics = receiver.receiveStatistics(ssrc: 0x0BBB, now: ms(50))
        XCTAssertEqual(statistics?.packetsExpected, 8)
        XCTAssertEqual(statistics?.packetsLost, 0)
        XCTAssertEqual(statistics?.packetsRecovered, 1)
        XCTAssertEqual(statistics?.duplicates, 1)
        XCTAssertEqual(statistics?.lossPercent, 12.5)
        XCTAssertEqual(statistics?.residualLossPercent, 0)
        XCTAssertEqual(statistics?.burstMax, 1)
        XCTAssertEqual(receiver.roundTripTime, .milliseconds(30), "NACK at 10 ms, resend at 40 ms")
    }

    /// Through an SFU a resend takes more than a round trip (the SFU first waits for the
    /// publisher's): the session keeps the longest time a NACKed packet was missing, which
    /// the peer's frame assembler then waits for. A reordered packet (never NACKed) and a
    /// packet that was never missing do not count.
    func testLongestRecoveryIsTheLongestTimeANackedPacketWasMissing() {
        var receiver = session()
        for sequence: UInt16 in [0, 1, 3, 4, 6, 7, 9] { _ = receiver.handleRtp(packet(sequence), now: ms(0)) }
        _ = receiver.handleRtp(packet(5), now: ms(5))  // reordered: arrives before any NACK
        XCTAssertEqual(receiver.longestRecovery, .zero)
        receiver.handleTimeout(now: ms(10))
        XCTAssertEqual(drainRtcp(&receiver).count, 1, "2 and 8 NACKed")
        _ = receiver.handleRtp(packet(2), now: ms(40))
        XCTAssertEqual(receiver.longestRecovery, .milliseconds(40))
        _ = receiver.handleRtp(packet(8), now: ms(180))  // the SFU forwarded the publisher's resend
        XCTAssertEqual(receiver.longestRecovery, .milliseconds(180))
        for sequence: UInt16 in 10...12 { _ = receiver.handleRtp(packet(sequence), now: ms(200)) }
        XCTAssertEqual(receiver.longestRecovery, .milliseconds(180), "only recoveries move it")
    }
}
