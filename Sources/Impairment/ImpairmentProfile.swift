/// What one direction of a link does to packets: loss, delay, jitter, reordering,
/// duplication and a rate limit with a queue. All fields default to "no impairment".
///
/// In scenario files a profile is an object with the snake_case names given per field
/// (`{"loss_pct": 5, "burst_length": 3, "delay_ms": 40}`) or a preset name (`"3g"`);
/// see `ImpairmentProfile+Codable.swift` and `ImpairmentProfile+Presets.swift`.
///
/// Packets go through the stages in this order (as Linux netem + tbf): loss, duplication,
/// the rate limiter's queue, then delay and jitter.
public struct ImpairmentProfile: Hashable, Sendable {
    /// `loss_pct`: percent of packets lost, 0...100.
    public var lossPct: Double = 0
    /// `burst_length`: mean number of consecutive packets lost in a loss episode. 1 means
    /// independent (random) loss; above 1 the loss follows the simple Gilbert model with
    /// `loss_pct` as its long-run rate (see `GilbertElliott`).
    public var burstLength: Double = 1
    /// `gilbert_elliott`: the raw `p r h k` parameters; when set they replace `loss_pct`
    /// and `burst_length`.
    public var gilbertElliott: GilbertElliott?
    /// `delay_ms`: fixed one-way delay added to every packet.
    public var delayMs: Double = 0
    /// `jitter_ms`: scale of the delay variation (half-width or standard deviation,
    /// see `JitterDistribution`).
    public var jitterMs: Double = 0
    /// `jitter_distribution`: `uniform` or `normal`.
    public var jitterDistribution: JitterDistribution = .uniform
    /// `reorder`: when false, jitter never changes the order packets arrive in; when true
    /// each packet keeps its own delay and may overtake earlier ones.
    public var reorder: Bool = false
    /// `duplicate_pct`: percent of (not lost) packets sent twice.
    public var duplicatePct: Double = 0
    /// `rate_kbps`: link rate in kilobits (1000 bits) per second; nil means unlimited.
    public var rateKbps: Double?
    /// `queue_packets`: most packets waiting for the rate limiter; more are dropped.
    /// nil means no limit on the count.
    public var queuePackets: Int?
    /// `queue_bytes`: most bytes waiting for the rate limiter; more are dropped.
    /// nil means no limit on the size.
    public var queueBytes: Int?
    /// `bucket_bytes`: token bucket depth, the burst the limiter passes at once after an
    /// idle period. The depth is never less than the packet at hand.
    public var bucketBytes: Int = 0

    /// No impairment at all.
    public init() {}

    /// How packets are lost under this profile.
    public enum LossModel: Hashable, Sendable {
        case none
        /// Each packet is lost independently with this probability.
        case random(Double)
        case bursty(GilbertElliott)
    }

    /// The loss model the fields describe; call `validate()` first.
    public var lossModel: LossModel {
        if let raw = gilbertElliott { return .bursty(raw) }
        if lossPct <= 0 { return .none }
        if burstLength <= 1 || lossPct >= 100 { return .random(lossPct / 100) }
        let model = try? GilbertElliott(lossRate: lossPct / 100, meanBurstLength: burstLength)
        return model.map(LossModel.bursty) ?? .random(lossPct / 100)
    }

    /// Checks every field, naming the first bad one with what it accepts.
    public func validate() throws(ImpairmentError) {
        try Self.check("loss_pct", lossPct, within: 0...100)
        try Self.check("duplicate_pct", duplicatePct, within: 0...100)
        try Self.check("delay_ms", delayMs, within: 0...3_600_000)
        try Self.check("jitter_ms", jitterMs, within: 0...3_600_000)
        try Self.check("burst_length", burstLength, within: 1...1_000_000)
        if let raw = gilbertElliott {
            try raw.validate()
        } else if burstLength > 1, lossPct > 0, lossPct < 100 {
            _ = try GilbertElliott(lossRate: lossPct / 100, meanBurstLength: burstLength)
        }
        if let rate = rateKbps, !(rate > 0 && rate.isFinite) {
            throw ImpairmentError(field: "rate_kbps", "must be a positive number of kilobits per second, got \(rate)")
        }
        if let limit = queuePackets, limit < 1 {
            throw ImpairmentError(field: "queue_packets", "must be at least 1, got \(limit)")
        }
        if let limit = queueBytes, limit < 1 {
            throw ImpairmentError(field: "queue_bytes", "must be at least 1, got \(limit)")
        }
        if bucketBytes < 0 {
            throw ImpairmentError(field: "bucket_bytes", "must be >= 0, got \(bucketBytes)")
        }
    }

    private static func check(_ field: String, _ value: Double, within range: ClosedRange<Double>) throws(ImpairmentError) {
        guard range.contains(value) else {
            throw ImpairmentError(field: field, "must be within \(range.lowerBound)...\(range.upperBound), got \(value)")
        }
    }
}
