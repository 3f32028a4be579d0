/// What a receiver learns from one payload before the frame is complete.
public struct RtpPayloadInfo: Equatable, Sendable {
    /// True at the first packet of a frame, false inside one, nil when the payload
    /// format cannot tell (H.264: the frame starts after the previous frame's packets).
    public var isFrameStart: Bool?
    /// True at the last packet of a frame when the format says so (VP9 E bit); nil
    /// leaves it to the RTP marker.
    public var isFrameEnd: Bool?
    /// The packet belongs to a frame that decodes on its own.
    public var isKeyframe: Bool

    public init(isFrameStart: Bool?, isFrameEnd: Bool? = nil, isKeyframe: Bool) {
        self.isFrameStart = isFrameStart
        self.isFrameEnd = isFrameEnd
        self.isKeyframe = isKeyframe
    }
}
