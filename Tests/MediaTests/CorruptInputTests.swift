import RTP
import Media
import RTCBase
import WebRTCTestKit
import XCTest

/// Corrupted, truncated and random frames give decoders and inspectors an error value,
/// never a crash.
final class CorruptInputTests: XCTestCase {
    private func encodedFrames(_ codec: Codec, count: Int = 10) throws -> [EncodedFrame] {
        let encoder = try VideoEncoderConfig(codec: codec, bitrate: 400_000).makeEncoder()
        var source = VideoSource()
        return try (0..<count).map { index in
            try XCTUnwrap(try encoder.encode(source.frame(index: index, resolution: .p180, captureTime: .zero)))
        }
    }

    func testTruncatedKeyframeIsADecodingError() throws {
        for codec in [Codec.vp8, .vp9, .h264] {
            let keyframe = try encodedFrames(codec, count: 1)[0].bytes
            for fraction in [2, 4, 10] {
                let decoder = try codec.makeDecoder()
                let truncated = Array(keyframe.prefix(keyframe.count / fraction))
                XCTAssertThrowsError(try decoder.decode(truncated), "\(codec) keyframe cut to 1/\(fraction)")
            }
        }
    }

    func testRandomBytesAreADecodingError() throws {
        var generator = SeededGenerator(seed: 7)
        for codec in [Codec.vp8, .vp9, .h264] {
            let decoder = try codec.makeDecoder()
            for length in [1, 7, 100, 3000] {
                // Starts with a start code for H.264 so the bytes reach the slice parser.
                let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let input = codec == .h264 ? [0, 0, 0, 1, 0x65] + noise : noise
                XCTAssertThrowsError(try decoder.decode(input), "\(codec) \(length) random bytes")
            }
            XCTAssertThrowsError(try decoder.decode([]), "\(codec) empty")
        }
    }

    func testDeltaFrameWithoutItsKeyframeIsADecodingError() throws {
        for codec in [Codec.vp8, .vp9, .h264] {
            let frames = try encodedFrames(codec, count: 3)
            let decoder = try codec.makeDecoder()
            XCTAssertThrowsError(try decoder.decode(frames[2].bytes), "\(codec)")
        }
    }

    func testDecodersSurviveMutatedStreamsAndRecoverAtTheNextKeyframe() throws {
        for codec in [Codec.vp8, .vp9, .h264] {
            let frames = try encodedFrames(codec)
            let decoder = try codec.makeDecoder()
            var fuzzer = Fuzzer(seeds: frames.map(\.bytes), seed: 42, maxLength: 8192)
            var errors = 0
            fuzzer.run(iterations: 1000) { input in
                do { _ = try decoder.decode(input) } catch { errors += 1 }
            }
            XCTAssertGreaterThan(errors, 100, "\(codec): some of 1000 mutated frames must be refused")
            let picture = try decoder.decode(frames[0].bytes)
            XCTAssertEqual(picture?.resolution, .p180, "\(codec) decodes again from a keyframe")
        }
    }

    func testOpusRejectsEmptyAndMalformedPackets() throws {
        let decoder = try OpusAudioDecoder(channels: 1)
        XCTAssertThrowsError(try decoder.decode([]))
        // TOC: config 31 (CELT FB 20 ms), stereo 0, code 3 (arbitrary count); count byte 0 frames: invalid.
        XCTAssertThrowsError(try decoder.decode([0xFB, 0x00]))
        // Code 3 with 48 frames of 20 ms = 960 ms > 120 ms: invalid.
        XCTAssertThrowsError(try decoder.decode([0xFB, 0x30]))
        var generator = SeededGenerator(seed: 3)
        var errors = 0
        for _ in 0..<2000 {
            let packet = (0..<Int.random(in: 1...200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            do {
                let pcm = try decoder.decode(packet)
                XCTAssertEqual(pcm.count % 120, 0, "whole 2.5 ms units")
            } catch { errors += 1 }
        }
        XCTAssertGreaterThan(errors, 0)
    }
}
