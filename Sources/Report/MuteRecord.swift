/// One planned mute of a received stream's track as its receiver saw it (timeline
/// `video.mute` / `audio.mute` and the unmute that ended it).
public struct MuteRecord: Codable, Equatable, Sendable {
    /// The mute's index in the scenario's `timeline`, and its unmute's (nil: none ended it).
    public var entry: Int
    public var unmuteEntry: Int?
    /// "stop", "black" or "silence".
    public var mode: String
    /// Frames that arrived inside the mute (after its first `MuteRecord.graceMs`): none is
    /// expected for "stop" (a frame means the server replayed or the mute failed), the
    /// muted rate for "black" and "silence".
    public var framesDuring: Int
    /// From the unmute to the first packet of the first frame after it, and to the first
    /// frame that shows the track again (video: a keyframe; audio: any frame); nil when
    /// none arrived or no unmute came.
    public var firstPacketMs: Double?
    public var firstFrameMs: Double?

    /// Frames still in flight when the mute acts are not counted in it.
    public static let graceMs = 250.0

    public init(entry: Int, unmuteEntry: Int?, mode: String, framesDuring: Int, firstPacketMs: Double?, firstFrameMs: Double?) {
        self.entry = entry
        self.unmuteEntry = unmuteEntry
        self.mode = mode
        self.framesDuring = framesDuring
        self.firstPacketMs = firstPacketMs
        self.firstFrameMs = firstFrameMs
    }
}
