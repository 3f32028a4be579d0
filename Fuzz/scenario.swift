import FuzzTargets

/// libFuzzer target `scenario`: see `FuzzTarget.scenario`.
let fuzzTarget = FuzzTarget.scenario
