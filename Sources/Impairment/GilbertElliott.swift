import RTCBase

/// The Gilbert-Elliott two-state loss model (bursty loss).
///
/// The channel is either Good or Bad. Each packet is lost with probability `1 - k` in Good
/// and `1 - h` in Bad; after each packet the channel moves Good -> Bad with probability `p`
/// and Bad -> Good with probability `r`. The names follow Gilbert (1960), Elliott (1963)
/// and the `gemodel p r 1-h 1-k` option of Linux netem.
///
/// With `h = 0` and `k = 1` (the simple Gilbert model, which `init(lossRate:meanBurstLength:)`
/// builds), every packet in Bad is lost and none in Good, so:
///
/// | figure | value |
/// |---|---|
/// | long-run loss rate | `p / (p + r)` |
/// | mean burst length (consecutive losses) | `1 / r` |
/// | burst length distribution | geometric: `P(n) = (1 - r)^(n-1) r` |
public struct GilbertElliott: Hashable, Sendable, Codable {
    /// P(Good -> Bad) after a packet.
    public var p: Double
    /// P(Bad -> Good) after a packet.
    public var r: Double
    /// P(a packet is delivered | Bad).
    public var h: Double
    /// P(a packet is delivered | Good).
    public var k: Double

    public init(p: Double, r: Double, h: Double = 0, k: Double = 1) {
        self.p = p
        self.r = r
        self.h = h
        self.k = k
    }

    /// The simple Gilbert model with the given long-run loss rate (0..<1) and mean burst
    /// length in packets (>= 1): `r = 1 / L`, `p = rate * r / (1 - rate)`.
    ///
    /// Throws when no such chain exists (`p` would exceed 1: bursts too short for the rate).
    public init(lossRate: Double, meanBurstLength: Double) throws(ImpairmentError) {
        guard lossRate >= 0, lossRate < 1 else {
            throw ImpairmentError(field: "loss_pct", "must be within 0..<100 for bursty loss, got \(lossRate * 100)")
        }
        guard meanBurstLength >= 1, meanBurstLength.isFinite else {
            throw ImpairmentError(field: "burst_length", "must be a finite number >= 1 packet, got \(meanBurstLength)")
        }
        let r = 1 / meanBurstLength
        let p = lossRate * r / (1 - lossRate)
        guard p <= 1 else {
            let shortest = lossRate / (1 - lossRate)
            throw ImpairmentError(
                field: "burst_length",
                "a loss rate of \(lossRate * 100) % needs a mean burst length of at least \(shortest) packets, got \(meanBurstLength)")
        }
        self.init(p: p, r: r)
    }

    private enum CodingKeys: String, CodingKey { case p, r, h, k }

    /// Decodes `{"p": 0.01, "r": 0.3}`; `h` defaults to 0 and `k` to 1 (simple Gilbert).
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            p: try fields.decode(Double.self, forKey: .p),
            r: try fields.decode(Double.self, forKey: .r),
            h: try fields.decodeIfPresent(Double.self, forKey: .h) ?? 0,
            k: try fields.decodeIfPresent(Double.self, forKey: .k) ?? 1)
    }

    /// The stationary probability of being in Bad: `p / (p + r)`.
    public var badStateShare: Double { p + r == 0 ? 0 : p / (p + r) }

    /// The long-run loss rate: `(1 - pi_B)(1 - k) + pi_B (1 - h)`.
    public var lossRate: Double {
        let bad = badStateShare
        return (1 - bad) * (1 - k) + bad * (1 - h)
    }

    /// Checks that all four are probabilities and the chain can leave Bad.
    public func validate() throws(ImpairmentError) {
        for (name, value) in [("p", p), ("r", r), ("h", h), ("k", k)] where !(value >= 0 && value <= 1) {
            throw ImpairmentError(field: "gilbert_elliott.\(name)", "must be a probability within 0...1, got \(value)")
        }
        if r == 0 && p > 0 {
            throw ImpairmentError(field: "gilbert_elliott.r", "must be > 0, or the channel never leaves the Bad state")
        }
    }
}

/// The running state of a Gilbert-Elliott channel.
struct GilbertElliottChannel: Sendable {
    var model: GilbertElliott
    private(set) var isBad = false

    init(model: GilbertElliott) { self.model = model }

    /// Decides the fate of one packet (true = lost) and steps the chain.
    mutating func nextIsLost(using generator: inout SeededGenerator) -> Bool {
        let deliverProbability = isBad ? model.h : model.k
        let lost = generator.nextUnit() >= deliverProbability
        let moveProbability = isBad ? model.r : model.p
        if generator.nextUnit() < moveProbability { isBad.toggle() }
        return lost
    }
}
