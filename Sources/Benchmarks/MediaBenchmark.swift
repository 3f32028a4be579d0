import RTP
import Foundation
import Media
import RTCBase

/// Media costs on one thread: generating test-pattern frames, encoding and decoding them
/// per codec and size (the codec libraries with rtcswarm's settings: one thread, default
/// bitrate for the size, keyframe every 300 frames), the quality figures a decoded sample
/// costs per frame (PSNR and SSIM of the Y plane), and Opus per 20 ms frame.
///
/// The first `warmup` frames of each encoder (its keyframe among them) are not timed;
/// each figure is then the mean over `frames` consecutive frames of the moving pattern.
struct MediaBenchmark {
    struct Case {
        let resolution: Resolution
        let frames: Int
    }

    var cases = [
        Case(resolution: .p360, frames: 300),
        Case(resolution: .p720, frames: 120),
        Case(resolution: .p1080, frames: 30),
    ]
    var warmup = 5
    var codecs: [Codec] = [.vp8, .vp9, .h264, .h265, .av1]
    var audioFrames = 5_000

    func run() throws {
        for item in cases { measureGeneration(item) }
        for item in cases { measureQuality(item) }
        for codec in codecs {
            for item in cases { try measureVideo(codec, item) }
        }
        try measureOpus()
    }

    /// Frame `index` of the 30 fps test pattern.
    private static func frame(_ index: Int, _ resolution: Resolution, from source: inout VideoSource) -> VideoFrame {
        source.frame(index: index, resolution: resolution, captureTime: Instant(nanoseconds: Int64(index) * 33_333_333))
    }

    private func measureGeneration(_ item: Case) {
        var source = VideoSource()
        var watch = Stopwatch()
        let count = item.frames * 4
        // The first frame of a size also builds the textured canvas, once per source.
        _ = Self.frame(0, item.resolution, from: &source)
        for index in 1...count {
            _ = watch.time { Self.frame(index, item.resolution, from: &source) }
        }
        print("media frame generation \(item.resolution): "
              + "\(watch.perOperation(count, per: "frame", unit: .milliseconds)); N=\(count)")
    }

    /// PSNR and SSIM of each frame against the next one of the pattern (a moving picture, so
    /// the planes differ as a decoded frame and its reference do).
    private func measureQuality(_ item: Case) {
        var source = VideoSource()
        let images = (0...item.frames).map { Self.frame($0, item.resolution, from: &source).image }
        var psnr = Stopwatch(), ssim = Stopwatch()
        var checksum = 0.0
        for index in 0..<item.frames {
            checksum += psnr.time { Quality.psnrY(images[index], reference: images[index + 1]) ?? 0 }
            checksum += ssim.time { Quality.ssimY(images[index], reference: images[index + 1]) ?? 0 }
        }
        print("media quality \(item.resolution): psnr \(psnr.perOperation(item.frames, per: "frame", unit: .milliseconds)); "
              + "ssim \(ssim.perOperation(item.frames, per: "frame", unit: .milliseconds)); "
              + String(format: "checksum %.1f; N=%d", checksum, item.frames))
    }

    private func measureVideo(_ codec: Codec, _ item: Case) throws {
        let config = VideoEncoderConfig.defaults(codec: codec, resolution: item.resolution)
        let encoder = try config.makeEncoder()
        let decoder = try codec.makeDecoder()
        var source = VideoSource()
        var encode = Stopwatch()
        var decode = Stopwatch()
        var bytes = 0
        var decoded = 0
        for index in 0..<(warmup + item.frames) {
            let timed = index >= warmup
            let frame = Self.frame(index, item.resolution, from: &source)
            if timed { encode.start() }
            let encoded = try encoder.encode(frame)
            if timed { encode.stop() }
            guard let encoded else { continue }
            if timed { decode.start() }
            let image = try decoder.decode(encoded.bytes)
            if timed { decode.stop() }
            guard timed else { continue }
            bytes += encoded.bytes.count
            if image?.width == item.resolution.width { decoded += 1 }
        }
        let kbps = Double(bytes * 8) / Double(item.frames) * config.frameRate / 1000
        print("media \(codec) \(item.resolution): "
              + "encode \(encode.perOperation(item.frames, per: "frame", unit: .milliseconds)); "
              + "decode \(decode.perOperation(item.frames, per: "frame", unit: .milliseconds)); "
              + String(format: "%.0f kbit/s at 30 fps (target %d), ", kbps, config.bitrate / 1000)
              + "\(decoded)/\(item.frames) decoded; N=\(item.frames)")
    }

    private func measureOpus() throws {
        let source = AudioSource()
        let encoder = try OpusAudioEncoder()
        let decoder = try OpusAudioDecoder()
        var generate = Stopwatch()
        var encode = Stopwatch()
        var decode = Stopwatch()
        var samples = 0
        for index in 0..<audioFrames {
            let frame = generate.time { source.frame(index: index, captureTime: Instant(nanoseconds: Int64(index) * 20_000_000)) }
            let packet = try encode.time { try encoder.encode(frame) }
            samples += try decode.time { try decoder.decode(packet.bytes) }.count
        }
        guard samples == audioFrames * AudioFrame.samplesPerChannel else {
            throw BenchmarkError("opus: \(samples) samples decoded")
        }
        print("media opus 48 kHz mono 32 kbit/s: "
              + "generate \(generate.perOperation(audioFrames, per: "frame", unit: .microseconds)); "
              + "encode \(encode.perOperation(audioFrames, per: "frame", unit: .microseconds)); "
              + "decode \(decode.perOperation(audioFrames, per: "frame", unit: .microseconds)); "
              + "20 ms frames, N=\(audioFrames)")
    }
}
