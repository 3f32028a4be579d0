import RTCBase

/// One raw video frame with its identity: the picture, the frame index and the capture
/// time (shared/METRICS.md, "Frame identity").
public struct VideoFrame: Hashable, Sendable {
    public var image: I420Image
    /// The frame's number in its stream, from 0; carried in the picture's block code, in
    /// the H.264 SEI and in the RTP timestamp.
    public var index: Int
    /// When the frame was captured, as given by the caller (the module reads no clock).
    public var captureTime: Instant

    public init(image: I420Image, index: Int, captureTime: Instant) {
        self.image = image
        self.index = index
        self.captureTime = captureTime
    }

    public var width: Int { image.width }
    public var height: Int { image.height }
    public var resolution: Resolution { image.resolution }
}

extension VideoFrame {
    /// Encoders take even sizes only (4:2:0 chroma covers 2x2 luma samples).
    func requireEvenSize() throws(MediaError) {
        guard width % 2 == 0, height % 2 == 0 else {
            throw MediaError(.invalidInput, "frame \(index): \(resolution) is not an even size")
        }
    }
}
