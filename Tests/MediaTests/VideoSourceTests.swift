import RTP
import Media
import RTCBase
import XCTest

/// The synthetic camera: deterministic, every supported size, a block code that reads
/// back exactly and survives 4x downscaling.
final class VideoSourceTests: XCTestCase {
    private let time = Instant(nanoseconds: 86_400_123_456_789)  // 86 400 123 ms

    func testSameParametersGiveTheSameFrame() {
        var first = VideoSource(), second = VideoSource()
        let a = first.frame(index: 42, width: 640, height: 360, captureTime: time)
        _ = second.frame(index: 7, width: 320, height: 180, captureTime: time)  // another size in between
        let b = second.frame(index: 42, width: 640, height: 360, captureTime: time)
        XCTAssertEqual(a, b)
    }

    func testConsecutiveFramesMoveOutsideTheCode() {
        var source = VideoSource()
        let a = source.frame(index: 10, width: 640, height: 360, captureTime: time)
        let b = source.frame(index: 11, width: 640, height: 360, captureTime: time)
        let lowerHalf = (640 * 180)..<(640 * 360)
        let changed = lowerHalf.filter { a.image.data[$0] != b.image.data[$0] }.count
        XCTAssertGreaterThan(changed, lowerHalf.count / 2, "the scene pans: most samples change")
    }

    func testEverySupportedSizeCarriesItsCode() {
        var source = VideoSource()
        let sizes = [(160, 90), (162, 92), (320, 180), (480, 270), (640, 480), (1280, 720), (1920, 1080), (3840, 2160)]
        for (width, height) in sizes {
            let frame = source.frame(index: 0xABCDEF, width: width, height: height, captureTime: time)
            XCTAssertEqual(frame.image.data.count, width * height * 3 / 2)
            XCTAssertEqual(frame.resolution, Resolution(width: width, height: height))
            let code = FrameCodeReader.read(frame.image)
            XCTAssertEqual(code, FrameCode(index: 0xABCDEF, captureMilliseconds: 86_400_123), "\(width)x\(height)")
        }
    }

    func testCodeKeepsThirtyTwoBitsOfIndexAndTime() {
        var source = VideoSource()
        let late = Instant(nanoseconds: (Int64(UInt32.max) + 5) * 1_000_000)  // wraps to 4 ms
        let frame = source.frame(index: (1 << 32) + 0x1234_5678, width: 320, height: 180, captureTime: late)
        XCTAssertEqual(FrameCodeReader.read(frame.image), FrameCode(index: 0x1234_5678, captureMilliseconds: 4))
    }

    func testPicturesWithoutCodeReadAsNil() {
        XCTAssertNil(FrameCodeReader.read(I420Image(width: 640, height: 360)), "black")
        XCTAssertNil(FrameCodeReader.read(I420Image(width: 640, height: 360, y: 235)), "white")
        XCTAssertNil(FrameCodeReader.read(I420Image(width: 30, height: 20)), "too small")
        var source = VideoSource()
        var frame = source.frame(index: 5, width: 320, height: 180, captureTime: time)
        frame.image.data[320 * 5 + 8] = 0  // one sample cannot flip a cell...
        XCTAssertNotNil(FrameCodeReader.read(frame.image))
        for row in 0..<11 { for column in 0..<16 { frame.image.data[row * 320 + column] ^= 0xFF } }  // ...a cell can
        XCTAssertNil(FrameCodeReader.read(frame.image), "CRC catches a flipped cell")
    }

    func testCodeSurvivesFourTimesDownscaling() {
        var source = VideoSource()
        for (width, height) in [(640, 360), (1280, 720), (1920, 1080), (3840, 2160)] {
            let frame = source.frame(index: 1234, width: width, height: height, captureTime: time)
            let small = TestImages.boxDownscale(frame.image, by: 4)
            XCTAssertEqual(small.resolution, Resolution(width: width / 4, height: height / 4))
            XCTAssertEqual(FrameCodeReader.read(small), FrameCode(index: 1234, captureTime: time), "\(width)x\(height) / 4")
        }
    }

    func testCodeSurvivesDownscalingAfterLowBitrateCoding() throws {
        for codec in [Codec.vp8, .vp9, .h264] {
            let encoder = try VideoEncoderConfig(codec: codec, bitrate: VideoEncoderConfig.minimumBitrate).makeEncoder()
            let decoder = try codec.makeDecoder()
            var source = VideoSource()
            var reads = 0
            for index in 0..<20 {
                let frame = source.frame(index: index, resolution: .p720, captureTime: time + .milliseconds(33 * index))
                let decoded = try XCTUnwrap(try decoder.decode(try XCTUnwrap(try encoder.encode(frame)).bytes))
                let code = FrameCodeReader.read(TestImages.boxDownscale(decoded, by: 4))
                if code == FrameCode(index: index, captureTime: frame.captureTime) { reads += 1 }
            }
            XCTAssertEqual(reads, 20, "\(codec) 1280x720 at 100 kbit/s, then 320x180")
        }
    }
}
