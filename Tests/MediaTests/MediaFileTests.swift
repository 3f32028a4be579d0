import RTP
import Media
import RTCBase
import XCTest

/// User content as a source: .y4m pictures, .ivf frames, Annex-B .h264 access units.
final class MediaFileTests: XCTestCase {
    private func y4m(header: String, frames: [I420Image]) -> [UInt8] {
        var bytes = Array((header + "\n").utf8)
        for frame in frames { bytes += Array("FRAME\n".utf8) + frame.data }
        return bytes
    }

    func testY4mFramesReadBackAndEncodeLikeThePattern() throws {
        var source = VideoSource()
        let pictures = (0..<3).map { source.frame(index: $0, width: 320, height: 180, captureTime: .zero).image }
        let reader = try Y4mReader(bytes: y4m(header: "YUV4MPEG2 W320 H180 F30000:1001 Ip A1:1 C420jpeg", frames: pictures))
        XCTAssertEqual(reader.resolution, .p180)
        XCTAssertEqual(reader.frameRate ?? 0, 29.97, accuracy: 0.01)
        XCTAssertEqual(reader.frameCount, 3)
        XCTAssertEqual((0..<3).map { reader.image(at: $0) }, pictures)
        let encoder = try VideoEncoderConfig(codec: .vp8, bitrate: 500_000).makeEncoder()
        let encoded = try encoder.encode(VideoFrame(image: reader.image(at: 0), index: 0, captureTime: .zero))
        XCTAssertEqual(encoded?.resolution, .p180)
    }

    func testY4mWithoutColourspaceTagIs420() throws {
        let reader = try Y4mReader(bytes: y4m(header: "YUV4MPEG2 W4 H2", frames: [I420Image(width: 4, height: 2)]))
        XCTAssertEqual(reader.frameCount, 1)
        XCTAssertNil(reader.frameRate)
    }

    func testY4mErrorNamesTheUnsupportedColourspace() {
        let bytes = Array("YUV4MPEG2 W4 H2 F30:1 C444\nFRAME\n".utf8) + [UInt8](repeating: 0, count: 24)
        XCTAssertThrowsError(try Y4mReader(bytes: bytes)) { error in
            XCTAssertEqual((error as? ParseError)?.code, .unsupported)
            XCTAssertTrue("\(error)".contains("C444"), "\(error)")
        }
    }

    func testY4mTruncatedOrForeignFilesAreRejected() {
        let frame = I420Image(width: 4, height: 2)
        var truncated = y4m(header: "YUV4MPEG2 W4 H2", frames: [frame])
        truncated.removeLast()
        XCTAssertThrowsError(try Y4mReader(bytes: truncated))
        XCTAssertThrowsError(try Y4mReader(bytes: Array("RIFF....\n".utf8)))
        XCTAssertThrowsError(try Y4mReader(bytes: y4m(header: "YUV4MPEG2 W5 H3", frames: [])), "odd size")
    }

    func testIvfRoundTripsThroughWriterReaderAndDecoder() throws {
        for codec in [Codec.vp8, .vp9] {
            let encoder = try VideoEncoderConfig(codec: codec, bitrate: 400_000).makeEncoder()
            var source = VideoSource()
            var writer = IvfWriter(codec: codec, resolution: .p180)
            var frames: [EncodedFrame] = []
            for index in 0..<5 {
                let frame = try XCTUnwrap(try encoder.encode(source.frame(index: index, resolution: .p180, captureTime: .zero)))
                writer.append(frame.bytes, timestamp: UInt64(frame.rtpTimestamp))
                frames.append(frame)
            }
            let reader = try IvfReader(bytes: writer.bytes)
            XCTAssertEqual(reader.codec, codec)
            XCTAssertEqual(reader.resolution, .p180)
            XCTAssertEqual(reader.timebaseNumerator, 1)
            XCTAssertEqual(reader.timebaseDenominator, 90_000)
            XCTAssertEqual(reader.frameCount, 5)
            XCTAssertEqual(writer.bytes[24], 5, "frame count in the header")
            XCTAssertEqual((0..<5).map { reader.frame(at: $0) }, frames.map(\.bytes))
            XCTAssertEqual((0..<5).map { reader.timestamp(at: $0) }, [0, 3000, 6000, 9000, 12000])
            let decoder = try codec.makeDecoder()
            for index in 0..<5 {
                let picture = try XCTUnwrap(try decoder.decode(reader.frame(at: index)))
                XCTAssertEqual(FrameCodeReader.read(picture)?.index, UInt32(index))
            }
        }
    }

    func testIvfWithAnotherCodecOrCutShortIsRejected() throws {
        var writer = IvfWriter(codec: .vp8, resolution: .p180)
        writer.append([1, 2, 3, 4], timestamp: 0)
        var av1 = writer.bytes
        av1.replaceSubrange(8..<12, with: Array("AV01".utf8))
        XCTAssertThrowsError(try IvfReader(bytes: av1)) { error in
            XCTAssertTrue("\(error)".contains("AV01"), "\(error)")
        }
        XCTAssertThrowsError(try IvfReader(bytes: Array(writer.bytes.dropLast())), "frame cut short")
        XCTAssertThrowsError(try IvfReader(bytes: Array(writer.bytes.prefix(20))), "header cut short")
    }
}
