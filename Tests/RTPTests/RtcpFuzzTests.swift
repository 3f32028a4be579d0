import FuzzTargets
import RTCBase
import RTP
import WebRTCTestKit
import XCTest

final class RtcpFuzzTests: XCTestCase {
    func testFuzzedCompoundPacketsNeverTrap() {
        var writer = ByteWriter()
        var seeds: [[UInt8]] = []
        for packet in FuzzTarget.rtcpSamples {
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
