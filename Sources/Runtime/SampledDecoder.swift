import Media
import PeerCore
import RTCBase

/// Full decoding for the sample of received video streams (METRICS.md: quality,
/// sampled): each frame is decoded, its block code read back, the reference frame of
/// that index regenerated, and the PSNR of the Y plane taken. Frames that do not decode
/// or whose code cannot be read are counted, not guessed.
final class SampledDecoder {
    private let codec: MediaCodec
    private var decoder: (any VideoDecoder)?
    private var source = VideoSource()
    private(set) var decoded = 0
    private(set) var decodeErrors = 0
    /// Decoded frames whose frame code read back (frame identity survived the trip).
    private(set) var codesRead = 0
    private var psnrTotal = 0.0
    private(set) var psnrMinimum: Double?
    private var psnrSamples = 0

    init(codec: MediaCodec) { self.codec = codec }

    func decode(_ frame: ReceivedFrame) {
        do {
            if decoder == nil { decoder = try codec.makeDecoder() }
            guard let image = try decoder?.decode(frame.data) else { return }
            decoded += 1
            guard let code = FrameCodeReader.read(image) else { return }
            codesRead += 1
            // The reference exists only for sizes the pattern can be drawn at.
            guard image.width % 2 == 0, image.height % 2 == 0,
                  (VideoSource.minimumSize.width...VideoSource.maximumSize.width).contains(image.width),
                  (VideoSource.minimumSize.height...VideoSource.maximumSize.height).contains(image.height) else { return }
            let captured = Instant(nanoseconds: Int64(code.captureMilliseconds) * 1_000_000)
            let reference = source.frame(index: Int(code.index), width: image.width, height: image.height, captureTime: captured)
            guard let psnr = Quality.psnrY(image, reference: reference.image) else { return }
            psnrTotal += psnr
            psnrSamples += 1
            psnrMinimum = min(psnrMinimum ?? psnr, psnr)
        } catch {
            decodeErrors += 1
        }
    }

    /// Mean PSNR (Y) over the frames compared, nil when none was.
    var psnrMean: Double? { psnrSamples > 0 ? psnrTotal / Double(psnrSamples) : nil }
}
