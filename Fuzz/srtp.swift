import FuzzTargets

/// libFuzzer target `srtp`: see `FuzzTarget.srtp`.
let fuzzTarget = FuzzTarget.srtp
