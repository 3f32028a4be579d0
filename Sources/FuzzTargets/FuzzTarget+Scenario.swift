import Metrics
import RTCBase
import Scenario

/// What a user writes: scenario files and threshold expressions.
extension FuzzTarget {
    /// A scenario file as `rtcswarm validate` and `run` read it (environment substitution,
    /// JSON5, strict decoding, validation), then its execution plan for three workers.
    public static let scenario = FuzzTarget(name: "scenario", fixtures: [FixtureSelection("Scenarios", suffix: ".json5")], seeds: {
        ["{ name: 'q', duration_s: 30, groups: [{ role: 'pair', count: 2 }], target: { kind: 'builtin-room' } }"].map { Array($0.utf8) }
    }, run: { input in
        guard let loaded = try? ScenarioLoader.load(text: String(decoding: input, as: UTF8.self)) else { return false }
        _ = ExecutionPlan(scenario: loaded.scenario, workers: 3)
        return true
    })

    /// Pass/fail expressions like `setup_ms.p95 < 500`.
    public static let threshold = FuzzTarget(name: "threshold", seeds: {
        ["setup_ms.p95 < 500", "failed_peers == 0", "resolution_survival.min == 100", "loss_pct.max<1e-3", "fps.mean >= 24.5"]
            .map { Array($0.utf8) }
    }, run: { input in
        (try? Threshold(parsing: String(decoding: input, as: UTF8.self))) != nil
    })
}
