import RTCBase

/// One direction of an impaired link, sans-IO: packets go in with `send`, come out with
/// `pollDelivery` once their delivery time has come.
///
/// Insert one per peer and direction between the peer and its socket (or in the in-memory
/// test network). The driver:
///
///     link.send(transmit, now: now)                    // instead of sending at once
///     while let (packet, _) = link.pollDelivery(now: now) { socket.send(packet) }
///     timer = link.pollTimeout()                       // call pollDelivery again then
///
/// Each packet passes, in order: the loss model (random or Gilbert-Elliott), duplication,
/// the rate limiter and its queue (`RateLimiter`), then the fixed delay plus jitter
/// (`JitterDistribution`). Without `reorder`, a delivery time is raised to the latest one
/// already given, so packets arrive in send order (the raise counts in their delay).
///
/// Every random choice comes from generators derived from `seed`, one per stage, so the
/// same seed, schedule and sends give exactly the same deliveries, and changing the jitter
/// does not change which packets are lost. Packet type is the caller's (`Transmit`,
/// `[UInt8]`, ...); the link stores it without copying its bytes.
public struct ImpairedLink<Packet> {
    /// The profiles over the run; before `start` the link is clean.
    public let schedule: ImpairmentSchedule
    /// The instant the schedule's offsets count from.
    public let start: Instant
    /// What the link has done so far.
    public private(set) var counters = ImpairmentCounters()

    private var changeIndex: Int?
    private var active: ActiveProfile
    private var lossRandom: SeededGenerator
    private var duplicateRandom: SeededGenerator
    private var jitterRandom: SeededGenerator
    private var jitterSampler = JitterSampler()
    private var limiter = RateLimiter()
    private var latestDelivery = Instant(nanoseconds: .min)
    private var pending = DeliveryHeap<Packet>()
    private var nextOrder: UInt64 = 0

    /// A link following `schedule`, whose offsets count from `start`.
    public init(schedule: ImpairmentSchedule, start: Instant, seed: UInt64) {
        self.schedule = schedule
        self.start = start
        var seeds = SeededGenerator(seed: seed)
        lossRandom = SeededGenerator(seed: seeds.next())
        duplicateRandom = SeededGenerator(seed: seeds.next())
        jitterRandom = SeededGenerator(seed: seeds.next())
        active = ActiveProfile(.clean)
    }

    /// A link with one profile from `Instant.zero` on.
    public init(profile: ImpairmentProfile, seed: UInt64) {
        self.init(schedule: ImpairmentSchedule(profile), start: .zero, seed: seed)
    }

    /// The profile the last `send` applied (clean before the first send).
    public var profile: ImpairmentProfile { active.profile }

    /// Packets accepted and not yet delivered.
    public var inFlight: Int { pending.count }

    /// Offers a packet of `size` bytes (its size on the wire, for the rate limit) sent at `now`.
    public mutating func send(_ packet: Packet, size: Int, now: Instant) {
        followSchedule(now: now)
        counters.sent += 1
        if isLost() {
            counters.droppedByLoss += 1
            return
        }
        enqueue(packet, size: size, now: now)
        if active.duplicateProbability > 0, duplicateRandom.nextUnit() < active.duplicateProbability {
            counters.duplicated += 1
            enqueue(packet, size: size, now: now)
        }
    }

    /// The next packet due by `now`, with the instant it was due; nil when none is due.
    public mutating func pollDelivery(now: Instant) -> (packet: Packet, deliverAt: Instant)? {
        guard let first = pending.first, first.deliverAt <= now, let entry = pending.removeFirst() else { return nil }
        counters.delivered += 1
        return (entry.packet, entry.deliverAt)
    }

    /// When the next packet is due, or nil when none is in flight.
    public func pollTimeout() -> Instant? { pending.first?.deliverAt }

    private mutating func followSchedule(now: Instant) {
        let offset = now - start
        var index = changeIndex
        while true {
            let next = index.map { $0 + 1 } ?? 0
            guard next < schedule.changes.count, schedule.changes[next].offset <= offset else { break }
            index = next
        }
        guard index != changeIndex, let index else { return }
        changeIndex = index
        active = ActiveProfile(schedule.changes[index].profile)
    }

    private mutating func isLost() -> Bool {
        switch active.loss {
        case .none:
            return false
        case .random(let probability):
            return lossRandom.nextUnit() < probability
        case .bursty(var channel):
            let lost = channel.nextIsLost(using: &lossRandom)
            active.loss = .bursty(channel)
            return lost
        }
    }

    private mutating func enqueue(_ packet: Packet, size: Int, now: Instant) {
        var departure = now
        if let limits = active.limits {
            guard let leaves = limiter.admit(size: size, now: now, limits: limits) else {
                counters.droppedByQueue += 1
                return
            }
            departure = leaves
        }
        var delay = active.delayNanoseconds
        if active.jitterNanoseconds > 0 {
            let jitter = jitterSampler.sample(active.profile.jitterDistribution, jitter: active.jitterNanoseconds, using: &jitterRandom)
            delay = max(0, delay + jitter)
        }
        // Validated profiles stay far inside; this only keeps a bad one from trapping.
        delay = min(max(delay, 0), 1e16)
        var deliverAt = departure + .nanoseconds(Int64(delay.rounded()))
        if !active.profile.reorder { deliverAt = max(deliverAt, latestDelivery) }
        latestDelivery = max(latestDelivery, deliverAt)
        pending.insert(.init(deliverAt: deliverAt, order: nextOrder, packet: packet))
        nextOrder += 1
    }
}

extension ImpairedLink: Sendable where Packet: Sendable {}

extension ImpairedLink where Packet == Transmit {
    /// Offers a datagram; its wire size is the payload plus IP and UDP headers
    /// (28 bytes over IPv4, 48 over IPv6).
    public mutating func send(_ transmit: Transmit, now: Instant) {
        let headers = transmit.destination.family == .ipv6 ? 48 : 28
        send(transmit, size: transmit.payload.count + headers, now: now)
    }
}

/// A profile with the numbers the per-packet path needs worked out once. Profiles are
/// meant to be validated (decoding does it); out-of-range numbers are clamped, not trapped on.
private struct ActiveProfile: Sendable {
    enum Loss: Sendable {
        case none
        case random(Double)
        case bursty(GilbertElliottChannel)
    }

    let profile: ImpairmentProfile
    var loss: Loss
    let duplicateProbability: Double
    let delayNanoseconds: Double
    let jitterNanoseconds: Double
    let limits: RateLimiter.Limits?

    init(_ profile: ImpairmentProfile) {
        self.profile = profile
        switch profile.lossModel {
        case .none: loss = .none
        case .random(let probability): loss = .random(probability)
        case .bursty(let model): loss = .bursty(GilbertElliottChannel(model: model))
        }
        duplicateProbability = profile.duplicatePct / 100
        delayNanoseconds = profile.delayMs * 1e6
        jitterNanoseconds = profile.jitterMs * 1e6
        limits = profile.rateKbps.map { rate in
            RateLimiter.Limits(
                bytesPerSecond: (rate > 0 ? rate : 0.001) * 1000 / 8, bucketBytes: profile.bucketBytes,
                queuePackets: profile.queuePackets, queueBytes: profile.queueBytes)
        }
    }
}
