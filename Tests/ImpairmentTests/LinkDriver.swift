import Impairment
import RTCBase

/// One packet as it came out of a link under test.
struct Delivery: Equatable {
    /// Send order of the packet (duplicates share it).
    let index: Int
    let sentAt: Instant
    let deliverAt: Instant

    var delayMs: Double { deliverAt.milliseconds(since: sentAt) }
}

/// Sends `count` packets of `size` bytes every `interval` from `Instant.zero`, then drains
/// the link. A link's output depends only on what was sent when, so draining at the end
/// gives the same deliveries as polling along the way (checked by `ImpairedLinkDriverTests`).
func drive(
    _ link: inout ImpairedLink<Int>, count: Int, interval: Duration, size: Int = 1000
) -> [Delivery] {
    var sentAt: [Instant] = []
    sentAt.reserveCapacity(count)
    for index in 0..<count {
        let now = Instant.zero + interval * index
        sentAt.append(now)
        link.send(index, size: size, now: now)
    }
    var deliveries: [Delivery] = []
    while let (index, deliverAt) = link.pollDelivery(now: Instant(nanoseconds: .max)) {
        deliveries.append(Delivery(index: index, sentAt: sentAt[index], deliverAt: deliverAt))
    }
    return deliveries
}

/// The same with a fresh link.
func drive(
    _ profile: ImpairmentProfile, seed: UInt64 = 1, count: Int, interval: Duration = .milliseconds(1), size: Int = 1000
) -> (deliveries: [Delivery], counters: ImpairmentCounters) {
    var link = ImpairedLink<Int>(profile: profile, seed: seed)
    let deliveries = drive(&link, count: count, interval: interval, size: size)
    return (deliveries, link.counters)
}

/// Sample mean and (n - 1) standard deviation.
func meanAndStandardDeviation(_ values: [Double]) -> (mean: Double, standardDeviation: Double) {
    let mean = values.reduce(0, +) / Double(values.count)
    let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
    return (mean, (squares / Double(values.count - 1)).squareRoot())
}

/// How many standard errors a measured figure may stray from its expectation. At 4, a
/// correct implementation fails about once in 16,000 seeds; the seeds are fixed anyway.
let sigmas = 4.0

/// The tolerance on a count of successes among `n` independent trials of probability `p`.
func binomialTolerance(n: Int, p: Double) -> Double {
    sigmas * (Double(n) * p * (1 - p)).squareRoot()
}
