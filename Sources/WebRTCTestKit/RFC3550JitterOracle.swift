/// An interarrival jitter computation for tests to check the product's figure against,
/// written straight from RFC 3550 6.4.1 and kept apart from `RTPSession`: for packets in
/// arrival order, D = (Rj - Ri) - (Sj - Si) and J += (|D| - J) / 16, with R the arrival time
/// and S the RTP timestamp, both in timestamp units.
public struct RFC3550JitterOracle: Sendable {
    public let clockRate: Double
    /// The jitter after the last packet, in timestamp units.
    public private(set) var jitter = 0.0
    private var previous: (arrival: Double, timestamp: Double)?
    private var sum = 0.0
    private var samples = 0

    public init(clockRate: Int) { self.clockRate = Double(clockRate) }

    /// Adds a packet that arrived at `arrivalSeconds` (any fixed origin) carrying
    /// `timestamp`, already unwrapped past 2^32 by the caller.
    public mutating func add(arrivalSeconds: Double, timestamp: Double) {
        let arrival = arrivalSeconds * clockRate
        if let previous {
            let difference = (arrival - previous.arrival) - (timestamp - previous.timestamp)
            jitter += (abs(difference) - jitter) / 16
            sum += jitter
            samples += 1
        }
        previous = (arrival, timestamp)
    }

    /// The last jitter in milliseconds.
    public var jitterMs: Double { jitter * 1000 / clockRate }

    /// The mean of the jitter after each packet (METRICS.md's per-stream mean), in ms.
    public var meanMs: Double { samples == 0 ? 0 : sum / Double(samples) * 1000 / clockRate }
}
