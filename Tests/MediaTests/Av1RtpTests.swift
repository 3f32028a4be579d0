import Media
import RTCBase
import RTP
import XCTest

/// libaom temporal units through the AV1 RTP packetizer and an assembler, then inspected
/// and decoded with libaom's decoder: the receive path of an AV1 player.
final class Av1RtpTests: XCTestCase {
    func testLibaomFramesSurviveMtu1200AndDecode() throws {
        for resolution in [Resolution.p360, .p720] {
            let encoder = try VideoEncoderConfig(codec: .av1, bitrate: VideoEncoderConfig.defaultBitrate(for: resolution),
                                                 keyframeInterval: 5).makeEncoder()
            let decoder = try Codec.av1.makeDecoder()
            var source = VideoSource()
            var packetizer = Av1Packetizer()
            var assembler = FrameAssembler(depacketizer: Av1Depacketizer())
            var sequence: UInt16 = 65_530
            var keyframePackets: [Int] = []
            var codes = 0
            for index in 0..<8 {
                let captured = Instant(nanoseconds: Int64(index) * 33_333_333)
                let encoded = try XCTUnwrap(try encoder.encode(source.frame(index: index, resolution: resolution, captureTime: captured)))
                let payloads = packetizer.packetize(encoded.bytes, isKeyframe: encoded.isKeyframe, maxPayloadSize: 1200)
                XCTAssertTrue(payloads.allSatisfy { $0.bytes.count <= 1200 })
                XCTAssertEqual(payloads.first.map { $0.bytes[0] & 0x08 != 0 }, encoded.isKeyframe, "N on a key frame's first packet")
                if encoded.isKeyframe { keyframePackets.append(payloads.count) }
                var writer = ByteWriter()
                for payload in payloads {
                    writer.reset()
                    RtpHeader(marker: payload.marker, payloadType: 45, sequenceNumber: sequence, timestamp: encoded.rtpTimestamp, ssrc: 7)
                        .write(payload: payload.bytes, to: &writer)
                    sequence &+= 1
                    assembler.insert(try RtpPacket(parsing: writer.bytes), now: .zero)
                }
                let frame = try XCTUnwrap(assembler.pollFrame(), "\(resolution) frame \(index)")
                XCTAssertEqual(frame.isKeyframe, encoded.isKeyframe)
                let sent = try Av1Obu.split(encoded.bytes).filter { $0.type != Av1Obu.temporalDelimiter }
                XCTAssertEqual(try Av1Obu.split(frame.data), sent, "\(resolution) frame \(index): the same OBUs, delimiter left out")
                XCTAssertEqual(try Av1Inspector.inspect(temporalUnit: frame.data).resolution, encoded.isKeyframe ? resolution : nil)
                let picture = try XCTUnwrap(try decoder.decode(frame.data))
                XCTAssertEqual(picture.resolution, resolution)
                if FrameCodeReader.read(picture) == FrameCode(index: index, captureTime: captured) { codes += 1 }
            }
            XCTAssertEqual(keyframePackets.count, 2, "\(resolution): keyframes at 0 and 5")
            XCTAssertGreaterThan(keyframePackets.min() ?? 0, 1, "\(resolution): keyframes span several packets")
            XCTAssertEqual(codes, 8, "\(resolution): block code read back from every decoded picture")
            XCTAssertEqual(assembler.statistics.malformedPackets, 0)
        }
    }
}
