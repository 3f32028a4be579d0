/// The busiest worker's CPU use for each sample, in percent of one core: per worker, the
/// CPU seconds its process spent between its two latest samples over the time between
/// them. A worker whose next sample has not come yet counts with its last figure for up
/// to `staleAfter` seconds; after that (a stalled or finished worker) it does not count.
struct WorkerCPUSeries {
    static let staleAfter = 2.0
    private var last: [Int: (t: Double, cpuSeconds: Double, pct: Double?)] = [:]

    /// The figure at `t` seconds; nil until some worker has sent two samples with its CPU time.
    mutating func busiestPct(at t: Double, samples: [Int: WorkerSample]) -> Double? {
        var busiest: Double?
        for (worker, sample) in samples {
            guard let cpu = sample.cpuSeconds, t - sample.tS <= Self.staleAfter else { continue }
            var pct = last[worker]?.pct
            if let previous = last[worker], sample.tS > previous.t {
                pct = max(0, cpu - previous.cpuSeconds) / (sample.tS - previous.t) * 100
            }
            if last[worker].map({ sample.tS > $0.t }) ?? true { last[worker] = (sample.tS, cpu, pct) }
            if let pct { busiest = max(busiest ?? 0, pct) }
        }
        return busiest
    }
}
