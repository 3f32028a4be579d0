import RTP
import Dispatch
import Media
import PeerCore
import RTCBase
import Synchronization

/// Full decoding for the sample of received video streams (METRICS.md: quality,
/// sampled): each frame is decoded, its block code read back, the reference frame of
/// that index regenerated, and the PSNR and SSIM of the Y plane taken. Frames that do not decode
/// or whose code cannot be read are counted, not guessed.
///
/// The work (a 720p frame costs milliseconds) runs on the decoder's own serial queue, never
/// on the event loop, which hands frames over and goes on; when the queue is more than
/// `backlogLimit` frames behind, frames are skipped rather than queued without bound (the
/// record then shows fewer frames decoded than received).
final class SampledDecoder: Sendable {
    struct Results: Sendable {
        var decoded = 0
        var decodeErrors = 0
        /// Decoded frames whose frame code read back (frame identity survived the trip).
        var codesRead = 0
        var psnrMinimum: Double?
        fileprivate var psnrTotal = 0.0
        fileprivate var psnrSamples = 0

        /// Each compared frame's SSIM (Y), in decoding order.
        var ssimValues: [Double] = []

        /// Mean PSNR (Y) over the frames compared, nil when none was.
        var psnrMean: Double? { psnrSamples > 0 ? psnrTotal / Double(psnrSamples) : nil }
    }

    static let backlogLimit = 90
    private let codec: Codec
    private let queue = DispatchQueue(label: "rtcswarm-sampled-decoder")
    private let backlog = Atomic<Int>(0)
    /// The decoder, the reference source and the figures; used on `queue`, read at the end.
    private let state = Mutex<(decoder: (any VideoDecoder)?, source: VideoSource, results: Results)>((nil, VideoSource(), Results()))

    init(codec: Codec) { self.codec = codec }

    /// Queues `frame` for decoding and returns at once.
    func decode(_ frame: ReceivedFrame) {
        guard backlog.add(1, ordering: .relaxed).newValue <= Self.backlogLimit else {
            backlog.subtract(1, ordering: .relaxed)
            return
        }
        queue.async { [self] in
            state.withLock { decodeNow(frame, &$0.decoder, &$0.source, &$0.results) }
            backlog.subtract(1, ordering: .relaxed)
        }
    }

    /// The figures once every frame handed over so far has been decoded.
    func results() -> Results {
        queue.sync { state.withLock { $0.results } }
    }

    private func decodeNow(_ frame: ReceivedFrame, _ decoder: inout (any VideoDecoder)?, _ source: inout VideoSource, _ results: inout Results) {
        do {
            if decoder == nil { decoder = try codec.makeDecoder() }
            guard let image = try decoder?.decode(frame.data) else { return }
            results.decoded += 1
            guard let code = FrameCodeReader.read(image) else { return }
            results.codesRead += 1
            // The reference exists only for sizes the pattern can be drawn at.
            guard image.width % 2 == 0, image.height % 2 == 0,
                  (VideoSource.minimumSize.width...VideoSource.maximumSize.width).contains(image.width),
                  (VideoSource.minimumSize.height...VideoSource.maximumSize.height).contains(image.height) else { return }
            let captured = Instant(nanoseconds: Int64(code.captureMilliseconds) * 1_000_000)
            let reference = source.frame(index: Int(code.index), width: image.width, height: image.height, captureTime: captured)
            guard let psnr = Quality.psnrY(image, reference: reference.image) else { return }
            results.psnrTotal += psnr
            results.psnrSamples += 1
            results.psnrMinimum = min(results.psnrMinimum ?? psnr, psnr)
            if let ssim = Quality.ssimY(image, reference: reference.image) { results.ssimValues.append(ssim) }
        } catch {
            results.decodeErrors += 1
        }
    }
}
