/// One `video.resolution` action as a receiver saw it: `switch_ms` from the action to the
/// first frame of the new size, read from the bitstream (nil: that size never arrived).
public struct ResolutionSwitch: Codable, Equatable, Sendable {
    /// The action's index in the scenario's `timeline`.
    public var entry: Int
    public var to: String
    public var switchMs: Double?

    public init(entry: Int, to: String, switchMs: Double?) {
        self.entry = entry
        self.to = to
        self.switchMs = switchMs
    }
}
