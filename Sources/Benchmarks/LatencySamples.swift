import Foundation

/// Latencies in nanoseconds, kept whole, summarised by nearest-rank percentiles.
struct LatencySamples {
    private(set) var nanoseconds: [Int64] = []

    var count: Int { nanoseconds.count }

    mutating func record(_ value: Int64) { nanoseconds.append(value) }

    /// "p50 1.23 ms, p99 4.56 ms, max 7.89 ms", or "no samples".
    func summary() -> String {
        guard !nanoseconds.isEmpty else { return "no samples" }
        let sorted = nanoseconds.sorted()
        func percentile(_ percent: Double) -> String {
            let rank = min(sorted.count - 1, max(0, Int((percent / 100 * Double(sorted.count)).rounded(.up)) - 1))
            return String(format: "%.2f ms", Double(sorted[rank]) / 1e6)
        }
        return "p50 \(percentile(50)), p99 \(percentile(99)), max \(percentile(100))"
    }
}
