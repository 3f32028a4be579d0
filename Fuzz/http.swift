import FuzzTargets

/// libFuzzer target `http`: see `FuzzTarget.http`.
let fuzzTarget = FuzzTarget.http
