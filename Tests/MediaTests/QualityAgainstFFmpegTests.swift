import RTP
import Foundation
import Media
import RTCBase
import WebRTCTestKit
import XCTest

/// SSIM and PSNR of the Y plane agree with ffmpeg's `ssim` and `psnr` filters on the same
/// decoded and reference frames, written as .y4m (Debian's ffmpeg).
final class QualityAgainstFFmpegTests: XCTestCase {
    /// VP8 at a low bitrate (visible loss of detail) at 320x180 and at 330x186, where the
    /// 4 x 4 blocks leave a 2-pixel remainder on the right and at the bottom. ffmpeg runs its
    /// C code (`-cpuflags 0`): its x86 SIMD line function reads past the last whole block at
    /// 330 wide (frame 0: 0.581052, against 0.575137 from its C code and from ours); at
    /// 320x180 both of its paths agree with ours.
    func testSsimAndPsnrAgreeWithFFmpegFrameByFrame() throws {
        let ffmpeg = try ExternalTool.require("ffmpeg", installHint: "apt-get install ffmpeg")
        for (width, height) in [(320, 180), (330, 186)] {
            let (decoded, references) = try encodeAndDecode(frames: 12, width: width, height: height, bitrate: 60_000)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quality-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
            try y4m(decoded).write(to: folder.appendingPathComponent("decoded.y4m"))
            try y4m(references).write(to: folder.appendingPathComponent("reference.y4m"))
            let result = try ExternalTool.run(ffmpeg, ["-hide_banner", "-nostdin", "-cpuflags", "0", "-i", "decoded.y4m", "-i", "reference.y4m", "-lavfi",
                                                       "[0:v][1:v]ssim=stats_file=ssim.log;[0:v][1:v]psnr=stats_file=psnr.log",
                                                       "-f", "null", "-"], in: folder)
            XCTAssertEqual(result.status, 0, result.output)
            let ssim = try figures(folder.appendingPathComponent("ssim.log"), key: "Y")
            let psnr = try figures(folder.appendingPathComponent("psnr.log"), key: "psnr_y")
            XCTAssertEqual(ssim.count, decoded.count)
            XCTAssertEqual(psnr.count, decoded.count)
            for (index, (image, reference)) in zip(decoded, references).enumerated() {
                let ours = try XCTUnwrap(Quality.ssimY(image, reference: reference))
                XCTAssertEqual(ours, ssim[index], accuracy: 0.00005, "\(width)x\(height) frame \(index) SSIM")
                XCTAssertEqual(try XCTUnwrap(Quality.psnrY(image, reference: reference)), psnr[index], accuracy: 0.01,
                               "\(width)x\(height) frame \(index) PSNR")
                XCTAssertLessThan(ours, 0.999, "the encoding lost detail, so the check is not of identical pictures")
            }
            print("\(width)x\(height): SSIM \(ssim.map { String(format: "%.4f", $0) }.joined(separator: " ")); "
                  + "PSNR \(psnr.map { String(format: "%.2f", $0) }.joined(separator: " "))")
        }
    }

    func testIdenticalPlanesHaveSsimOneAndDifferentSizesNone() {
        let image = I420Image(width: 64, height: 36, y: 100)
        XCTAssertEqual(try XCTUnwrap(Quality.ssimY(image, reference: image)), 1, accuracy: 1e-12)
        XCTAssertNil(Quality.ssimY(image, reference: I420Image(width: 32, height: 18)))
        // A flat plane against another flat one 16 levels brighter: no variance, so only the
        // luminance term is left, from the windows' sums a and b: (2ab + C1) / (a^2 + b^2 + C1).
        let brighter = I420Image(width: 64, height: 36, y: 116)
        let (a, b) = (100.0 * 64, 116.0 * 64)
        let expected = (2 * a * b + 416) / (a * a + b * b + 416)
        XCTAssertEqual(try XCTUnwrap(Quality.ssimY(brighter, reference: image)), expected, accuracy: 1e-12)
    }

    /// Generated frames through the encoder and decoder, with the reference of each.
    private func encodeAndDecode(frames: Int, width: Int, height: Int, bitrate: Int) throws -> ([I420Image], [I420Image]) {
        var source = VideoSource()
        let encoder = try VideoEncoderConfig(codec: .vp8, bitrate: bitrate).makeEncoder()
        let decoder = try Codec.vp8.makeDecoder()
        var decoded: [I420Image] = [], references: [I420Image] = []
        for index in 0..<frames {
            let frame = source.frame(index: index, width: width, height: height,
                                     captureTime: Instant(nanoseconds: 1_000_000_000 + Int64(index) * 33_333_333))
            guard let encoded = try encoder.encode(frame), let image = try decoder.decode(encoded.bytes) else { continue }
            decoded.append(image)
            references.append(frame.image)
        }
        return (decoded, references)
    }

    /// The frames as a YUV4MPEG2 stream (4:2:0, 30 fps).
    private func y4m(_ images: [I420Image]) -> Data {
        guard let first = images.first else { return Data() }
        var data = Data("YUV4MPEG2 W\(first.width) H\(first.height) F30:1 Ip A1:1 C420jpeg\n".utf8)
        for image in images {
            data.append(Data("FRAME\n".utf8))
            data.append(contentsOf: image.data)
        }
        return data
    }

    /// The per-frame values of `key` in an ffmpeg stats file (`n:1 Y:0.98 ...`, `... psnr_y:38.1 ...`).
    private func figures(_ log: URL, key: String) throws -> [Double] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { line in
            let field = try XCTUnwrap(line.split(separator: " ").first { $0.hasPrefix("\(key):") }, String(line))
            return try XCTUnwrap(Double(field.dropFirst(key.count + 1)), String(line))
        }
    }
}
