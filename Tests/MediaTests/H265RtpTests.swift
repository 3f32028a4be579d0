import Media
import RTCBase
import RTP
import XCTest

/// x265 access units through the RFC 7798 packetizer and back, byte for byte, with the
/// size read from the SPS after depacketizing: the receive path of an H.265 player.
final class H265RtpTests: XCTestCase {
    func testX265FramesSurviveMtu1200WithTheirSps() throws {
        for resolution in [Resolution.p360, .p720, .p1080] {
            let encoder = try VideoEncoderConfig(codec: .h265, bitrate: VideoEncoderConfig.defaultBitrate(for: resolution),
                                                 keyframeInterval: 5).makeEncoder()
            var source = VideoSource()
            var packetizer = H265Packetizer()
            var keyframeBytes: [Int] = []
            for index in 0..<8 {
                let encoded = try XCTUnwrap(try encoder.encode(source.frame(index: index, resolution: resolution, captureTime: .zero)))
                let payloads = packetizer.packetize(encoded.bytes, isKeyframe: encoded.isKeyframe, maxPayloadSize: 1200)
                XCTAssertTrue(payloads.allSatisfy { $0.bytes.count <= 1200 })
                var frame: [UInt8] = []
                for payload in payloads {
                    XCTAssertEqual(try H265Depacketizer().inspect(ByteReader(payload.bytes)).isKeyframe && !encoded.isKeyframe, false)
                    try H265Depacketizer().append(ByteReader(payload.bytes), to: &frame)
                }
                // Same NAL units; the depacketizer writes a 4-byte start code before each.
                XCTAssertEqual(Self.nalUnits(frame), Self.nalUnits(encoded.bytes), "\(resolution) frame \(index)")
                let inspected = try H265Inspector.inspect(accessUnit: frame)
                XCTAssertEqual(inspected.isKeyframe, encoded.isKeyframe)
                XCTAssertEqual(inspected.resolution, encoded.isKeyframe ? resolution : nil)
                if encoded.isKeyframe { keyframeBytes.append(encoded.bytes.count) }
            }
            XCTAssertEqual(keyframeBytes.count, 2, "\(resolution): keyframes at 0 and 5")
            XCTAssertGreaterThan(keyframeBytes.min() ?? 0, 1200, "\(resolution): keyframes span several packets")
        }
    }

    private static func nalUnits(_ stream: [UInt8]) -> [[UInt8]] {
        Media.AnnexB.nalUnits(in: stream).map { Array(stream[$0]) }
    }
}
