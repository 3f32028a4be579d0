import Metrics
import Report

/// Reports with known figures, built by hand.
enum ReportFixtures {
    static func metrics(setup: [Double], loss: [Double], failed: Int = 0) -> MetricSet {
        var set = MetricSet()
        for value in setup { set.record(value, in: .setupMs) }
        for value in loss { set.record(value, in: .videoLossPct) }
        set.increment(.failedPeers, by: failed)
        return set
    }

    static func report(cells: [CellReport], interrupted: Bool = false, invalid: String? = nil) -> RunReport {
        RunReport(rtcswarmVersion: "0.1.0", scenarioName: "demo <&>", resolvedScenario: "{ name: \"demo\" }", seed: 7,
                  startedAt: "2026-11-29T12:00:00Z", durationS: 30, interrupted: interrupted, invalidReason: invalid,
                  cells: cells, workers: [WorkerReport(index: 0, peers: 40, cpuPct: 12.5, rssMB: 30, lagP50Ms: 0.1,
                                                       lagP99Ms: 2, lagMaxMs: 4, socketDrops: 0, sendErrors: 0)])
    }

    static func cell(_ label: String, setup: [Double], loss: [Double], thresholds: [ThresholdOutcome] = []) -> CellReport {
        CellReport(label: label, metrics: metrics(setup: setup, loss: loss), thresholds: thresholds,
                   timeSeries: (0..<5).map { TimeSample(tS: Double($0), connectingPeers: 0, connectedPeers: $0 * 10, failedPeers: 0,
                                                         receiveKbps: Double($0) * 800, sendKbps: 0, lagP99Ms: 1) },
                   peers: [PeerRecord(id: "p0", group: 0, role: "player", startedAtMs: 0, endedAtMs: 30_000,
                                      phases: ["setup_ms": setup.first ?? 0], outcome: .completed,
                                      streams: [StreamRecord(kind: "video", codec: "h264", packetsReceived: 990, packetsExpected: 1000,
                                                             lossPct: 1, residualLossPct: 0, burstMax: 2, jitterMs: 3, framesReceived: 900,
                                                             resolutions: ["1280x720": 900])]),
                           PeerRecord(id: "p1", group: 0, role: "player", startedAtMs: 0, endedAtMs: 12_400, outcome: .failed,
                                      failedPhase: "ice", failureReason: "ICE consent lost at 12.4 s")])
    }
}
