import RTCBase

/// Interarrival jitter of RFC 3550 6.4.1 and A.8, in timestamp units.
///
/// For consecutive packets i, j: D = (Rj - Ri) - (Sj - Si), with R the arrival time in
/// timestamp units and S the RTP timestamp; J += (|D| - J) / 16. Kept as a Double (the
/// appendix's integer form scales by 16 to the same end).
struct JitterEstimator: Sendable {
    let clockRate: Double
    private var previousArrival: Double?
    private var previousTimestamp: UInt32 = 0
    private(set) var jitter: Double = 0
    private(set) var maximum: Double = 0
    private var sum: Double = 0
    private var samples = 0

    init(clockRate: Int) { self.clockRate = Double(clockRate) }

    mutating func update(timestamp: UInt32, arrival: Instant) {
        let arrivalUnits = Double(arrival.nanoseconds) * clockRate / 1e9
        defer {
            previousArrival = arrivalUnits
            previousTimestamp = timestamp
        }
        guard let previousArrival else { return }
        let difference = (arrivalUnits - previousArrival) - Double(Int32(bitPattern: timestamp &- previousTimestamp))
        jitter += (abs(difference) - jitter) / 16
        maximum = max(maximum, jitter)
        sum += jitter
        samples += 1
    }

    /// The mean of the jitter values after each packet, in timestamp units.
    var mean: Double { samples == 0 ? 0 : sum / Double(samples) }

    func milliseconds(_ units: Double) -> Double { units * 1000 / clockRate }
}
