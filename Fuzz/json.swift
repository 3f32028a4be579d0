import FuzzTargets

/// libFuzzer target `json`: see `FuzzTarget.json`.
let fuzzTarget = FuzzTarget.json
