import RTP
import Media
import RTCBase
import XCTest

/// Mid-stream controls: resolution changes, keyframe requests, bitrate and frame rate.
final class EncoderControlTests: XCTestCase {
    /// 1280x720 for frames 0-19, 640x360 for 20-39, 1280x720 for 40-59: inspection and
    /// decoding both see each change at its frame, and the new size starts with a keyframe.
    private func resolutionChange(_ codec: Codec) throws {
        var trip = try VideoRoundTrip(codec: codec, bitrate: 1_000_000)
        var inspectedChanges: [(Int, Resolution)] = []
        var last: Resolution?
        for (range, size) in [(0..<20, Resolution.p720), (20..<40, .p360), (40..<60, .p720)] {
            for index in range {
                let frame = trip.source.frame(index: index, resolution: size, captureTime: VideoRoundTrip.captureTime(index))
                let encoded = try XCTUnwrap(try trip.encoder.encode(frame))
                let inspected = try BitstreamInspector.inspect(encoded.bytes, codec: codec)
                if let seen = inspected.resolution, seen != last {
                    XCTAssertTrue(inspected.isKeyframe, "\(codec): new size at frame \(index) starts with a keyframe")
                    inspectedChanges.append((index, seen))
                    last = seen
                }
                try trip.check(encoded, reference: frame)
            }
        }
        let expected = [(0, Resolution.p720), (20, .p360), (40, .p720)]
        XCTAssertEqual(inspectedChanges.map(\.0), expected.map(\.0), "\(codec) inspected")
        XCTAssertEqual(inspectedChanges.map(\.1), expected.map(\.1), "\(codec) inspected")
        XCTAssertEqual(trip.sizeChanges.map(\.0), expected.map(\.0), "\(codec) decoded")
        XCTAssertEqual(trip.sizeChanges.map(\.1), expected.map(\.1), "\(codec) decoded")
        XCTAssertEqual(trip.sizeMismatches, [])
        XCTAssertEqual(trip.codeReads, 60)
    }

    func testVp8ResolutionChangeSeenAtTheRightFrame() throws { try resolutionChange(.vp8) }
    func testVp9ResolutionChangeSeenAtTheRightFrame() throws { try resolutionChange(.vp9) }
    func testH264ResolutionChangeSeenAtTheRightFrame() throws { try resolutionChange(.h264) }
    func testAv1ResolutionChangeSeenAtTheRightFrame() throws { try resolutionChange(.av1) }

    func testRequestedKeyframeComesOnTheNextFrame() throws {
        for codec in [Codec.vp8, .vp9, .h264, .av1] {
            let encoder = try VideoEncoderConfig(codec: codec, bitrate: 500_000, keyframeInterval: 1000).makeEncoder()
            var source = VideoSource()
            var keyframes: [Int] = []
            for index in 0..<20 {
                if index == 12 { encoder.requestKeyframe() }
                let frame = source.frame(index: index, resolution: .p180, captureTime: VideoRoundTrip.captureTime(index))
                let encoded = try XCTUnwrap(try encoder.encode(frame))
                if encoded.isKeyframe { keyframes.append(index) }
                XCTAssertEqual(try BitstreamInspector.inspect(encoded.bytes, codec: codec).isKeyframe, encoded.isKeyframe)
            }
            XCTAssertEqual(keyframes, [0, 12], "\(codec)")
        }
    }

    func testLoweringTheBitrateShrinksTheFrames() throws {
        for codec in [Codec.vp8, .vp9, .h264, .av1] {
            let encoder = try VideoEncoderConfig(codec: codec, bitrate: 2_000_000).makeEncoder()
            var source = VideoSource()
            var bytes = [0, 0]
            for index in 0..<80 {
                if index == 40 { try encoder.setBitrate(200_000) }
                let frame = source.frame(index: index, resolution: .p360, captureTime: VideoRoundTrip.captureTime(index))
                let encoded = try XCTUnwrap(try encoder.encode(frame))
                if (10..<40).contains(index) { bytes[0] += encoded.bytes.count }
                if (50..<80).contains(index) { bytes[1] += encoded.bytes.count }
            }
            // 30 frames at 30 fps = 1 s: about the bitrate / 8 in bytes.
            print("\(codec): 1 s at 2 Mbit/s = \(bytes[0]) bytes, at 200 kbit/s = \(bytes[1]) bytes")
            XCTAssertLessThan(bytes[1] * 4, bytes[0], "\(codec)")
            XCTAssertLessThan(bytes[1], 200_000 / 8 * 2, "\(codec) stays near 200 kbit/s")
        }
    }

    func testRtpTimestampsFollowTheIndexAndFrameRate() throws {
        let encoder = try VideoEncoderConfig(codec: .vp8, bitrate: 300_000, frameRate: 30).makeEncoder()
        var source = VideoSource()
        var stamps: [UInt32] = []
        for index in 100..<106 {
            if index == 103 { try encoder.setFrameRate(15) }
            let frame = source.frame(index: index, resolution: .p180, captureTime: .zero)
            stamps.append(try XCTUnwrap(try encoder.encode(frame)).rtpTimestamp)
        }
        // 90 kHz: 3000 ticks per frame at 30 fps, 6000 at 15 fps from frame 103 on.
        XCTAssertEqual(stamps, [300_000, 303_000, 306_000, 312_000, 318_000, 324_000])
    }

    func testRateChangesMustBePositive() throws {
        for codec in [Codec.vp8, .h264, .h265, .av1] {
            let encoder = try VideoEncoderConfig(codec: codec, bitrate: 300_000).makeEncoder()
            XCTAssertThrowsError(try encoder.setBitrate(0), "\(codec)")
            XCTAssertThrowsError(try encoder.setFrameRate(-1), "\(codec)")
            XCTAssertEqual(encoder.config.bitrate, 300_000, "\(codec): a refused bitrate changes nothing")
        }
    }

    func testRtpTimestampsWrapModulo32Bits() {
        var timestamps = RtpTimestamps(clockRate: 90_000, frameRate: 30)
        XCTAssertEqual(timestamps.timestamp(index: 1_431_656), UInt32(truncatingIfNeeded: Int64(1_431_656) * 3000))
    }

    func testConfigurationErrorsAreReported() {
        XCTAssertThrowsError(try VideoEncoderConfig(codec: .vp8, bitrate: 0).makeEncoder())
        XCTAssertThrowsError(try VideoEncoderConfig(codec: .opus, bitrate: 32_000).makeEncoder())
        XCTAssertThrowsError(try Codec.opus.makeDecoder())
        for codec in [Codec.vp8, .vp9, .h264] {
            let odd = VideoFrame(image: I420Image(width: 321, height: 181), index: 0, captureTime: .zero)
            XCTAssertThrowsError(try VideoEncoderConfig(codec: codec, bitrate: 300_000).makeEncoder().encode(odd)) { error in
                XCTAssertEqual((error as? MediaError)?.code, .invalidInput, "\(codec)")
            }
        }
    }

    func testEncodeLoadReportsTheSustainableFrameRate() {
        var load = EncodeLoad(window: 4)
        XCTAssertNil(load.sustainableFrameRate)
        for milliseconds in [200, 40, 40, 40, 40] { load.record(.milliseconds(milliseconds)) }  // 200 leaves the window
        XCTAssertEqual(load.meanMilliseconds ?? 0, 40, accuracy: 1e-9)
        XCTAssertEqual(load.sustainableFrameRate ?? 0, 25, accuracy: 1e-9)
        XCTAssertNil(load.shortfall(requested: 24))
        XCTAssertEqual(load.shortfall(requested: 30), "encoder sustains 25.0 fps (40.0 ms per frame), 30.0 fps requested")
    }
}
