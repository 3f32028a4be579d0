import Media
import RTCBase
import XCTest

/// What the H.264 encoder's access units look like to an RTP packetizer and to SRS.
final class H264StreamTests: XCTestCase {
    private func encode(_ resolution: Resolution, frames: Int, keyframeInterval: Int = 300) throws -> [EncodedFrame] {
        let encoder = try VideoEncoderConfig(codec: .h264, bitrate: VideoEncoderConfig.defaultBitrate(for: resolution),
                                             keyframeInterval: keyframeInterval).makeEncoder()
        var source = VideoSource()
        return try (0..<frames).map { index in
            let frame = source.frame(index: index, resolution: resolution, captureTime: VideoRoundTrip.captureTime(index))
            return try XCTUnwrap(try encoder.encode(frame))
        }
    }

    private func nalTypes(_ frame: EncodedFrame) -> [UInt8] {
        AnnexB.nalUnits(in: frame.bytes).map { frame.bytes[$0.lowerBound] & 0x1F }
    }

    func testProfileLevelIdIsConstrainedBaselineAtTheLevelTheSizeNeeds() throws {
        // OpenH264 sets constraint_set0 and 1 (c0); SDP's 42e0xx names the same profile.
        let expected: [(Resolution, String)] = [(.p180, "42c01f"), (.p720, "42c01f"), (.p1080, "42c028"),
                                                (.p2160, "42c033")]
        for (resolution, profileLevelId) in expected {
            let frame = try encode(resolution, frames: 1)[0]
            let units = AnnexB.nalUnits(in: frame.bytes)
            let spsRange = try XCTUnwrap(units.first { frame.bytes[$0.lowerBound] & 0x1F == 7 })
            let sps = try H264Sps(nalUnit: frame.bytes[spsRange])
            XCTAssertEqual(sps.profileLevelId, profileLevelId, "\(resolution)")
            XCTAssertTrue(sps.isConstrainedBaseline)
            XCTAssertEqual(sps.resolution, resolution)
        }
    }

    func testEveryIdrHasSpsPpsThenSeiThenOneSlice() throws {
        let frames = try encode(.p180, frames: 25, keyframeInterval: 10)
        for frame in frames {
            // 7 SPS, 8 PPS, 6 SEI, 5 IDR slice, 1 non-IDR slice: one slice per picture.
            XCTAssertEqual(nalTypes(frame), frame.isKeyframe ? [7, 8, 6, 5] : [6, 1], "frame \(frame.index)")
            XCTAssertEqual(Array(frame.bytes.prefix(4)), [0, 0, 0, 1], "4-byte start code")
        }
        XCTAssertEqual(frames.filter(\.isKeyframe).map(\.index), [0, 10, 20])
    }

    func testSeiCarriesIndexAndCaptureTimeOfEveryFrame() throws {
        for frame in try encode(.p180, frames: 10) {
            let inspection = try H264Inspector.inspect(accessUnit: frame.bytes)
            XCTAssertEqual(inspection.stamp, FrameStamp(index: frame.index, captureTime: frame.captureTime))
        }
    }
}
