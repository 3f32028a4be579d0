import RTCBase
import RTP
import RTPSession
import WebRTCTestKit
import XCTest

final class RtpSessionFuzzTests: XCTestCase {
    func testFuzzedRtcpAndRtpNeverTrapAndAreCounted() {
        var session = RtpSession(configuration: .init(cname: "fuzz", seed: 3, feedbackSsrc: 1), now: .zero)
        session.addSendStream(.init(ssrc: 2, payloadType: 96, clockRate: 90_000, rtx: .init(ssrc: 4, payloadType: 97)))
        session.addReceiveStream(.init(ssrc: 3, clockRate: 90_000, nack: true, rtxSsrc: 5))
        for index in 0..<200 {
            session.send(RtpPayload(bytes: [UInt8(index)], marker: true), ssrc: 2, mediaTimestamp: UInt32(index), now: .zero)
        }
        let next = session.nextSequenceNumber(ssrc: 2) ?? 0
        var writer = ByteWriter()
        let seeds: [[UInt8]] = [
            .nack(GenericNack(senderSsrc: 3, mediaSsrc: 2, lost: [next &- 3, next &- 2])),
            .pictureLoss(PictureLossIndication(senderSsrc: 3, mediaSsrc: 2)),
            .fullIntraRequest(FullIntraRequest(senderSsrc: 3, entries: [.init(ssrc: 2, sequenceNumber: 1)])),
            .receiverReport(ReceiverReport(ssrc: 3, reports: [ReportBlock(ssrc: 2, lastSenderReport: 5)])),
            .senderReport(SenderReport(ssrc: 3, ntpTimestamp: 1, rtpTimestamp: 2, packetCount: 3, octetCount: 4)),
            .goodbye(Goodbye(ssrcs: [3])),
        ].map { (packet: RtcpPacket) in
            writer.reset()
            packet.write(to: &writer)
            return writer.bytes
        }
        var fuzzer = Fuzzer(seeds: seeds, seed: 11, maxLength: 96)
        var now = Instant.zero
        var sequence: UInt16 = 0
        fuzzer.run(iterations: 100_000) { input in
            now += .microseconds(100)
            session.handleRtcp(input, now: now)
            // Mostly in sequence (so the source validates), with gaps and reordering.
            sequence &+= UInt16((input.first ?? 0) % 4) &- 1
            let header: [UInt8] = [0x80, 0x60, UInt8(sequence >> 8), UInt8(sequence & 0xff), 0, 0, 0, 1, 0, 0, 0, 3]
            if var packet = try? RtpPacket(parsing: header + input.prefix(8)) {
                if input.first.map({ $0 & 1 == 1 }) ?? false {
                    // Every other one on the RTX stream.
                    var rtx = ByteWriter()
                    RtpHeader(packet).write(payload: packet.payload, to: &rtx)
                    rtx.patchU32(5, at: 8)
                    packet = (try? RtpPacket(parsing: rtx.bytes)) ?? packet
                }
                _ = session.handleRtp(packet, now: now)
            }
            if let timeout = session.pollTimeout(), timeout <= now { session.handleTimeout(now: now) }
            while session.pollTransmit() != nil {}
            while session.pollEvent() != nil {}
        }
        XCTAssertGreaterThan(session.counters.malformedRtcp, 10_000)
        let statistics = session.receiveStatistics(ssrc: 3, now: now)
        XCTAssertGreaterThan(statistics?.packetsExpected ?? 0, 0)
        XCTAssertGreaterThan(session.sendCounters(ssrc: 2)?.retransmissions ?? 0, 0)
    }
}
