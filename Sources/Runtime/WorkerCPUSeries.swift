/// The busiest worker's CPU use for each sample, in percent of one core: per worker, the
/// CPU seconds its process spent since its previous sample over the time between the two.
struct WorkerCPUSeries {
    private var last: [Int: (t: Double, cpuSeconds: Double)] = [:]

    /// Nil until some worker has sent two samples with its CPU time.
    mutating func busiestPct(samples: [Int: WorkerSample]) -> Double? {
        var busiest: Double?
        for (worker, sample) in samples {
            guard let cpu = sample.cpuSeconds else { continue }
            defer { last[worker] = (sample.tS, cpu) }
            guard let previous = last[worker], sample.tS > previous.t else { continue }
            let pct = max(0, cpu - previous.cpuSeconds) / (sample.tS - previous.t) * 100
            busiest = max(busiest ?? 0, pct)
        }
        return busiest
    }
}
