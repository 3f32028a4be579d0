import FuzzTargets

/// libFuzzer target `threshold`: see `FuzzTarget.threshold`.
let fuzzTarget = FuzzTarget.threshold
