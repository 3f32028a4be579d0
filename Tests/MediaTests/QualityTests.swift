import RTP
import Media
import RTCBase
import XCTest

/// PSNR of the Y plane against known errors.
final class QualityTests: XCTestCase {
    func testIdenticalPicturesGiveTheCap() {
        let image = I420Image(width: 64, height: 36, y: 100)
        XCTAssertEqual(Quality.psnrY(image, reference: image), Quality.maximumPsnr)
    }

    func testKnownErrorsGiveKnownPsnr() throws {
        let reference = I420Image(width: 64, height: 36, y: 100)
        // Every luma sample off by 1: MSE 1, PSNR = 10 log10(65025) = 48.13 dB.
        XCTAssertEqual(try XCTUnwrap(Quality.psnrY(I420Image(width: 64, height: 36, y: 101), reference: reference)),
                       48.131, accuracy: 0.001)
        // Off by 16: MSE 256, PSNR = 48.13 - 24.08 = 24.05 dB. Chroma does not count.
        XCTAssertEqual(try XCTUnwrap(Quality.psnrY(I420Image(width: 64, height: 36, y: 116, u: 0), reference: reference)),
                       24.048, accuracy: 0.001)
    }

    func testDifferentSizesHaveNoPsnr() {
        XCTAssertNil(Quality.psnrY(I420Image(width: 64, height: 36), reference: I420Image(width: 32, height: 18)))
    }

    func testRegeneratedReferenceMatchesTheDecodedCode() throws {
        // A receiver reads the code from the decoded frame and regenerates the reference.
        let time = Instant(nanoseconds: 1_000_000_000)
        var publisher = VideoSource()
        let frame = publisher.frame(index: 17, resolution: .p360, captureTime: time)
        let encoder = try VideoEncoderConfig.defaults(codec: .vp9, resolution: .p360).makeEncoder()
        let decoded = try XCTUnwrap(try Codec.vp9.makeDecoder().decode(try XCTUnwrap(try encoder.encode(frame)).bytes))
        let code = try XCTUnwrap(FrameCodeReader.read(decoded))
        var receiver = VideoSource()
        let reference = receiver.frame(index: Int(code.index), resolution: decoded.resolution,
                                       captureTime: Instant(nanoseconds: Int64(code.captureMilliseconds) * 1_000_000))
        XCTAssertEqual(reference, frame)
        XCTAssertGreaterThan(try XCTUnwrap(Quality.psnrY(decoded, reference: reference.image)), 30)
    }
}
