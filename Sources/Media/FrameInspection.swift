import RTCBase

/// What a look at an encoded frame's headers tells, without decoding it.
public struct FrameInspection: Hashable, Sendable {
    /// VP8/VP9 key frame, H.264 access unit with an IDR slice.
    public var isKeyframe: Bool
    /// The picture size when the frame states it (keyframes; VP9 intra-only frames; H.264
    /// units carrying an SPS). A delta frame inherits the size of its keyframe.
    public var resolution: Resolution?
    /// H.264 only: the frame-identity SEI, when present.
    public var stamp: FrameStamp?

    public init(isKeyframe: Bool, resolution: Resolution?, stamp: FrameStamp? = nil) {
        self.isKeyframe = isKeyframe
        self.resolution = resolution
        self.stamp = stamp
    }
}
