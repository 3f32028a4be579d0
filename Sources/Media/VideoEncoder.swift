/// A video encoder: plain synchronous calls, no threads, no clocks. Not thread-safe: one
/// thread at a time (a runtime's encoder thread) calls it, and shares the `EncodedFrame`s
/// with any number of publishers. To report what frame rate it sustains, the caller
/// times `encode` itself.
public protocol VideoEncoder: AnyObject {
    var config: VideoEncoderConfig { get }

    /// Encodes one frame. A frame of a new size restarts the encoder at that size with a
    /// keyframe. Returns nil when the codec produced nothing for this frame.
    func encode(_ frame: VideoFrame) throws(MediaError) -> EncodedFrame?

    /// The next frame will be a keyframe (a PLI or FIR from any receiver).
    func requestKeyframe()

    /// Changes the target bitrate (bits per second) from the next frame on.
    func setBitrate(_ bitsPerSecond: Int) throws(MediaError)

    /// Changes the frame rate the rate control and RTP timestamps assume.
    func setFrameRate(_ framesPerSecond: Double) throws(MediaError)
}
