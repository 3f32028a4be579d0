/// One `video.resolution` action as a receiver saw it: `switch_ms` from the action to the
/// first frame of the new size, read from the bitstream (nil: that size never arrived), and
/// what the switch cost from the action until a second after that frame: the longest gap
/// between frames (`freezeMs`) and the frames sent then that never arrived (`framesLost`).
public struct ResolutionSwitch: Codable, Equatable, Sendable {
    /// The action's index in the scenario's `timeline`.
    public var entry: Int
    public var to: String
    public var switchMs: Double?
    public var freezeMs: Double?
    public var framesLost: Int?

    public init(entry: Int, to: String, switchMs: Double?, freezeMs: Double? = nil, framesLost: Int? = nil) {
        self.entry = entry
        self.to = to
        self.switchMs = switchMs
        self.freezeMs = freezeMs
        self.framesLost = framesLost
    }
}
