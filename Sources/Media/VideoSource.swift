import RTCBase

/// Deterministic synthetic camera: I420 frames of any even size from 160x90 to 3840x2160
/// showing a textured scene that pans slowly plus a moving box, with the frame's
/// `FrameCode` painted over the top quarter.
///
/// The same (index, size, capture time) always gives the same picture, so a receiver can
/// regenerate the reference of any decoded frame for `Quality.psnrY`. Size and frame rate
/// are parameters of each call, so a stream can change resolution mid-way the way a
/// capturer adapts its format. Frames are built from whole-row copies and fills: the
/// textured canvas for a size is computed once and cached.
public struct VideoSource: Sendable {
    /// The supported range (scenario validation checks sizes against it).
    public static let minimumSize = Resolution(width: 160, height: 90)
    public static let maximumSize = Resolution(width: 3840, height: 2160)

    private var canvas: VideoCanvas?

    public init() {}

    /// The frame `index` (from 0) at `width` x `height` (even, within the supported range).
    public mutating func frame(index: Int, width: Int, height: Int, captureTime: Instant) -> VideoFrame {
        precondition(index >= 0, "frame indices start at 0")
        precondition(width % 2 == 0 && height % 2 == 0, "I420 frames need an even size")
        precondition(width >= Self.minimumSize.width && width <= Self.maximumSize.width
                     && height >= Self.minimumSize.height && height <= Self.maximumSize.height,
                     "frame size \(width)x\(height) is outside 160x90...3840x2160")
        if canvas?.width != width || canvas?.height != height {
            canvas = VideoCanvas(width: width, height: height)
        }
        guard let canvas else { preconditionFailure("canvas was just built") }
        var image = canvas.picture(index: index)
        FrameCode(index: index, captureTime: captureTime).draw(into: &image)
        return VideoFrame(image: image, index: index, captureTime: captureTime)
    }

    /// The frame at `resolution`.
    public mutating func frame(index: Int, resolution: Resolution, captureTime: Instant) -> VideoFrame {
        frame(index: index, width: resolution.width, height: resolution.height, captureTime: captureTime)
    }
}
