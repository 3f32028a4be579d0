import RTP
import Media
import RTCBase
import XCTest

/// Encodes generated frames, inspects and decodes every one, and checks frame identity,
/// size agreement and quality along the way (shared/METRICS.md).
struct VideoRoundTrip {
    var source = VideoSource()
    let encoder: any VideoEncoder
    let decoder: any VideoDecoder
    let codec: Codec

    /// Per-run results.
    var frames = 0
    var codeReads = 0
    var psnrSum = 0.0
    var psnrMinimum = Double.infinity
    var sizeMismatches: [String] = []
    var keyframeBytes: [Int] = []
    var deltaFrameBytes: [Int] = []
    /// (index, decoded size) where the decoded size changed.
    var sizeChanges: [(Int, Resolution)] = []
    private var keyframeSize: Resolution?
    private var lastDecodedSize: Resolution?

    init(codec: Codec, bitrate: Int, keyframeInterval: Int = 300) throws {
        self.codec = codec
        encoder = try VideoEncoderConfig(codec: codec, bitrate: bitrate, keyframeInterval: keyframeInterval).makeEncoder()
        decoder = try codec.makeDecoder()
    }

    /// 30 fps capture times from an arbitrary monotonic origin.
    static func captureTime(_ index: Int) -> Instant {
        Instant(nanoseconds: 5_000_000_000_000 + Int64(index) * 33_333_333)
    }

    mutating func run(_ indices: Range<Int>, at resolution: Resolution) throws {
        for index in indices {
            let frame = source.frame(index: index, resolution: resolution, captureTime: Self.captureTime(index))
            guard let encoded = try encoder.encode(frame) else {
                XCTFail("\(codec) \(resolution): no output for frame \(index)")
                continue
            }
            try check(encoded, reference: frame)
        }
    }

    mutating func check(_ encoded: EncodedFrame, reference: VideoFrame) throws {
        frames += 1
        let inspected = try BitstreamInspector.inspect(encoded.bytes, codec: codec)
        XCTAssertEqual(inspected.isKeyframe, encoded.isKeyframe, "frame \(encoded.index) keyframe flag")
        if inspected.isKeyframe { keyframeSize = inspected.resolution }
        if encoded.isKeyframe {
            keyframeBytes.append(encoded.bytes.count)
        } else {
            deltaFrameBytes.append(encoded.bytes.count)
        }
        if codec == .h264 {
            XCTAssertEqual(inspected.stamp, FrameStamp(index: reference.index, captureTime: reference.captureTime))
        }
        guard let decoded = try decoder.decode(encoded.bytes) else {
            XCTFail("\(codec): frame \(encoded.index) decoded to nothing")
            return
        }
        let published = reference.resolution
        let inherited = inspected.resolution ?? keyframeSize
        if decoded.resolution != published || inherited != published || encoded.resolution != published {
            sizeMismatches.append("frame \(encoded.index): published \(published) encoded \(encoded.resolution) "
                                  + "inspected \(inherited.map(\.description) ?? "none") decoded \(decoded.resolution)")
        }
        if decoded.resolution != lastDecodedSize {
            sizeChanges.append((encoded.index, decoded.resolution))
            lastDecodedSize = decoded.resolution
        }
        if FrameCodeReader.read(decoded) == FrameCode(index: reference.index, captureTime: reference.captureTime) {
            codeReads += 1
        }
        let psnr = Quality.psnrY(decoded, reference: reference.image) ?? 0
        psnrSum += psnr
        psnrMinimum = min(psnrMinimum, psnr)
    }

    var meanPsnr: Double { psnrSum / Double(max(frames, 1)) }
    var codeReadRatio: Double { Double(codeReads) / Double(max(frames, 1)) }
}
