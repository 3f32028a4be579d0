import RTP
import Media
import RTCBase
import WebRTCTestKit
import XCTest

/// 100,000 random and mutated inputs per parser: each throws or returns, none traps.
final class ParserFuzzTests: XCTestCase {
    private static let iterations = 100_000

    /// The first bytes of real frames: enough for every header, cheap to mutate.
    private func seeds(_ codec: Codec) throws -> [[UInt8]] {
        let encoder = try VideoEncoderConfig(codec: codec, bitrate: 300_000).makeEncoder()
        var source = VideoSource()
        return try (0..<3).map { index in
            let frame = source.frame(index: index, width: 160, height: 90, captureTime: .zero)
            return Array(try XCTUnwrap(try encoder.encode(frame)).bytes.prefix(96))
        }
    }

    private func fuzz(_ seeds: [[UInt8]], maxLength: Int = 128, _ body: ([UInt8]) -> Bool) {
        var fuzzer = Fuzzer(seeds: seeds, seed: 0xF022, maxLength: maxLength)
        var accepted = 0
        fuzzer.run(iterations: Self.iterations) { input in
            if body(input) { accepted += 1 }
        }
        XCTAssertLessThan(accepted, Self.iterations, "garbage cannot all be valid")
    }

    func testVp8HeaderFuzz() throws {
        fuzz(try seeds(.vp8)) { (try? Vp8Header.inspect($0)) != nil }
    }

    func testVp9HeaderFuzz() throws {
        fuzz(try seeds(.vp9)) { (try? Vp9Header.inspect($0)) != nil }
    }

    func testH264AccessUnitFuzz() throws {
        fuzz(try seeds(.h264)) { (try? H264Inspector.inspect(accessUnit: $0)) != nil }
    }

    func testAv1TemporalUnitFuzz() throws {
        fuzz(try seeds(.av1)) { (try? Av1Inspector.inspect(temporalUnit: $0)) != nil }
    }

    func testAv1SequenceHeaderFuzz() throws {
        fuzz([Av1SequenceHeaderTests.header360p, Av1SequenceHeaderTests.header1080pWithTiming]) {
            (try? Av1SequenceHeader(payload: $0[...])) != nil
        }
    }

    func testH265AccessUnitFuzz() throws {
        fuzz(try seeds(.h265)) { (try? H265Inspector.inspect(accessUnit: $0)) != nil }
    }

    func testH265SpsFuzz() throws {
        fuzz([H265SpsTests.sps1080p, H265SpsTests.spsWithSubLayers]) { (try? H265Sps(nalUnit: $0[...])) != nil }
    }

    func testSpsAndSeiFuzz() throws {
        let sps: [UInt8] = [0x67, 0x64, 0x00, 0x28, 0xAD, 0x84, 0x40, 0x6C, 0xA0, 0x3C, 0x02, 0x27, 0xED]
        let sei = H264FrameSei.nalUnit(for: FrameStamp(index: 77, captureTime: .zero))
        fuzz([sps, sei]) { input in
            let parsedSps = (try? H264Sps(nalUnit: input[...])) != nil
            let parsedSei = ((try? H264FrameSei.read(nalUnit: input[...])) ?? nil) != nil
            return parsedSps || parsedSei
        }
    }

    func testAnnexBSplitterFuzz() throws {
        fuzz(try seeds(.h264)) { input in
            let units = AnnexB.accessUnits(in: input)
            return !units.isEmpty
        }
    }

    func testY4mAndIvfReaderFuzz() throws {
        let y4m = Array("YUV4MPEG2 W4 H2 F30:1 Ip C420jpeg\nFRAME\n".utf8) + [UInt8](repeating: 0x80, count: 12)
        var ivf = IvfWriter(codec: .vp8, resolution: Resolution(width: 4, height: 2))
        ivf.append([0x50, 0x01, 0x00], timestamp: 0)
        fuzz([y4m, ivf.bytes]) { input in
            let y4mParsed = (try? Y4mReader(bytes: input)).map { reader in
                (0..<reader.frameCount).forEach { _ = reader.image(at: $0) }
                return true
            } ?? false
            let ivfParsed = (try? IvfReader(bytes: input)).map { reader in
                (0..<reader.frameCount).forEach { _ = reader.frame(at: $0) }
                return true
            } ?? false
            return y4mParsed || ivfParsed
        }
    }
}
