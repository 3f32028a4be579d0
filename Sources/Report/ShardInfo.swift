/// Which part of a sharded run a report holds (`rtcswarm run --shard I/N`), and how far
/// its clock can be trusted against the other shards': cross-shard figures (a player on
/// one machine timing a publisher on another) can be no more exact than the clocks.
public struct ShardInfo: Codable, Equatable, Sendable {
    /// From 0, as Kubernetes numbers an Indexed Job's pods.
    public var index: Int
    public var count: Int
    /// The common start every shard waited for (`--start-at`, RFC 3339), if one was given.
    public var startAt: String?
    /// The kernel's estimate of this machine's clock error (adjtimex `esterror`, kept by
    /// chrony or ntpd) in milliseconds; nil when the clock is not synchronized or unknown.
    public var clockErrorMs: Double?
    /// Where `clockErrorMs` came from, or why there is none, in words.
    public var clockSource: String

    public init(index: Int, count: Int, startAt: String? = nil, clockErrorMs: Double? = nil, clockSource: String) {
        self.index = index
        self.count = count
        self.startAt = startAt
        self.clockErrorMs = clockErrorMs
        self.clockSource = clockSource
    }

    /// `shard 2/4`.
    public var name: String { "shard \(index)/\(count)" }
}
