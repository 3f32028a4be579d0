import RTCBase
import RTP
import WebRTCTestKit
import XCTest

final class RtcpFuzzTests: XCTestCase {
    func testFuzzedCompoundPacketsNeverTrap() {
        var writer = ByteWriter()
        let block = ReportBlock(ssrc: 2, fractionLost: 1, cumulativeLost: 2, extendedHighestSequence: 3)
        let packets: [RtcpPacket] = [
            .senderReport(SenderReport(ssrc: 1, ntpTimestamp: 2, rtpTimestamp: 3, packetCount: 4, octetCount: 5, reports: [block])),
            .receiverReport(ReceiverReport(ssrc: 1, reports: [block])),
            .sourceDescription(SourceDescription(chunks: [.init(ssrc: 1, cname: "cname")])),
            .goodbye(Goodbye(ssrcs: [1], reason: "bye")),
            .nack(GenericNack(senderSsrc: 1, mediaSsrc: 2, lost: [1, 3, 40])),
            .pictureLoss(PictureLossIndication(senderSsrc: 1, mediaSsrc: 2)),
            .fullIntraRequest(FullIntraRequest(senderSsrc: 1, entries: [.init(ssrc: 2, sequenceNumber: 3)])),
            .remb(ReceiverEstimatedMaxBitrate(senderSsrc: 1, bitrate: 1_000_000, ssrcs: [2])),
            .transportCc(
                TransportCcFeedback(
                    senderSsrc: 1, mediaSsrc: 2, baseSequence: 3, referenceTime: 4, feedbackCount: 5,
                    deltas: [1, nil, 300, 2, 2, 2, 2, 2, 2, 2, 2])),
        ]
        var seeds: [[UInt8]] = []
        for packet in packets {
            writer.reset()
            packet.write(to: &writer)
            seeds.append(writer.bytes)
        }
        seeds.append(seeds.joined().map { $0 })
        var fuzzer = Fuzzer(seeds: seeds, seed: 2, maxLength: 160)
        var parsedPackets = 0
        fuzzer.run(iterations: 100_000) { input in
            var reader = RtcpCompoundReader(input)
            while let packet = try? reader.next() {
                parsedPackets += 1
                if case .transportCc(let feedback) = packet { _ = feedback.arrivalMicroseconds }
                if case .nack(let nack) = packet { _ = nack.lostSequenceNumbers }
            }
        }
        XCTAssertGreaterThan(parsedPackets, 10_000)
    }
}
