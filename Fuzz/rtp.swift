import FuzzTargets

/// libFuzzer target `rtp`: see `FuzzTarget.rtp`.
let fuzzTarget = FuzzTarget.rtp
