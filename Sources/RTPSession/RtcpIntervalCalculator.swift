import RTCBase

/// The RTCP transmission interval of RFC 3550 6.3.1 (and A.7).
///
/// With n members (or, when senders are at most a quarter of them, only the senders or
/// only the receivers) sharing the RTCP bandwidth, Td = max(Tmin, n * avg_rtcp_size /
/// bandwidth share); the interval is Td times a random factor in [0.5, 1.5] divided by
/// e - 3/2 = 1.21828. Tmin is half the minimum before the first report (6.3.1).
struct RtcpIntervalCalculator: Sendable {
    /// RTCP bandwidth in bytes per second (RFC 3550 6.2: typically 5 % of the session).
    var bandwidth: Double
    /// Minimum interval (RFC 3550 recommends 5 s; RFC 4585 feedback profiles may use less).
    var minimumInterval: Duration
    /// Average compound RTCP packet size in bytes, with lower-layer overhead (6.3.3).
    private(set) var averagePacketSize: Double
    private var generator: SeededGenerator

    init(bandwidth: Double, minimumInterval: Duration = .seconds(5), seed: UInt64) {
        self.bandwidth = bandwidth
        self.minimumInterval = minimumInterval
        averagePacketSize = 100
        generator = SeededGenerator(seed: seed)
    }

    /// Updates the average with a compound packet sent or received (6.3.3: weight 1/16).
    mutating func observe(packetSize: Int) {
        averagePacketSize += (Double(packetSize + 28) - averagePacketSize) / 16
    }

    /// The randomized interval to the next report.
    mutating func nextInterval(members: Int, senders: Int, weSent: Bool, initial: Bool) -> Duration {
        let minimum = Double(minimumInterval.nanoseconds) / 1e9 / (initial ? 2 : 1)
        var share = bandwidth
        var count = Double(max(1, members))
        if Double(senders) <= Double(members) * 0.25 {
            if weSent {
                share *= 0.25
                count = Double(max(1, senders))
            } else {
                share *= 0.75
                count = Double(max(1, members - senders))
            }
        }
        let deterministic = max(minimum, count * averagePacketSize / max(share, 1))
        let randomized = deterministic * (0.5 + generator.nextUnit()) / 1.21828
        return .nanoseconds(Int64(randomized * 1e9))
    }
}
