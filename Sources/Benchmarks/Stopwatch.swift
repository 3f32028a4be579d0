import EventLoop
import Foundation

/// Wall time and this thread's CPU time, accumulated over any number of start/stop laps,
/// so one benchmark can time several phases of the same loop apart.
struct Stopwatch {
    private(set) var wallSeconds = 0.0
    private(set) var cpuSeconds = 0.0
    private var startedWall: Int64?
    private var startedCPU = 0.0

    mutating func start() {
        startedCPU = threadCPUSeconds()
        startedWall = MonotonicClock.now().nanoseconds
    }

    mutating func stop() {
        guard let startedWall else { return }
        wallSeconds += Double(MonotonicClock.now().nanoseconds - startedWall) / 1e9
        cpuSeconds += threadCPUSeconds() - startedCPU
        self.startedWall = nil
    }

    /// Times one call of `body` (added to what was timed before).
    mutating func time<T>(_ body: () throws -> T) rethrows -> T {
        start()
        defer { stop() }
        return try body()
    }

    /// "1234 ns/packet wall, 1200 ns/packet CPU" for `operations` of what `per` names.
    func perOperation(_ operations: Int, per: String, unit: TimeUnit = .nanoseconds) -> String {
        let count = Double(max(operations, 1))
        let wall = unit.format(wallSeconds / count)
        let cpu = unit.format(cpuSeconds / count)
        return "\(wall) \(unit.symbol)/\(per) wall, \(cpu) \(unit.symbol)/\(per) CPU"
    }
}

/// How a per-operation figure is printed.
struct TimeUnit {
    let symbol: String
    let scale: Double
    let decimals: Int

    func format(_ seconds: Double) -> String { String(format: "%.\(decimals)f", seconds * scale) }

    static let nanoseconds = TimeUnit(symbol: "ns", scale: 1e9, decimals: 0)
    static let microseconds = TimeUnit(symbol: "us", scale: 1e6, decimals: 1)
    static let milliseconds = TimeUnit(symbol: "ms", scale: 1e3, decimals: 2)
}

extension Stopwatch {
    /// The time of several stopwatches together.
    static func sum(_ watches: Stopwatch...) -> Stopwatch {
        var total = Stopwatch()
        total.wallSeconds = watches.reduce(0) { $0 + $1.wallSeconds }
        total.cpuSeconds = watches.reduce(0) { $0 + $1.cpuSeconds }
        return total
    }
}
