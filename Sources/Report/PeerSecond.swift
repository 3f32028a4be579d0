/// One second of one peer's received media (its record's `series`, docs/metrics.md "Per
/// peer over time"): over the second before `tS`, first-pass loss in percent of the
/// packets expected (nil when none was), NACKs sent per second, complete video frames per
/// second per video stream (nil without video) and the freezes that began; and its
/// streams' interarrival jitter (RFC 3550 A.8) at `tS`, the larger of each kind's.
public struct PeerSecond: Codable, Equatable, Sendable {
    public var tS: Double
    public var lossPct: Double?
    public var nacksPerS: Double?
    public var fps: Double?
    public var freezes: Int?
    public var videoJitterMs: Double?
    public var audioJitterMs: Double?

    public init(tS: Double, lossPct: Double? = nil, nacksPerS: Double? = nil, fps: Double? = nil, freezes: Int? = nil,
                videoJitterMs: Double? = nil, audioJitterMs: Double? = nil) {
        self.tS = tS
        self.lossPct = lossPct
        self.nacksPerS = nacksPerS
        self.fps = fps
        self.freezes = freezes
        self.videoJitterMs = videoJitterMs
        self.audioJitterMs = audioJitterMs
    }
}
