import FuzzTargets

/// libFuzzer target `stun`: see `FuzzTarget.stun`.
let fuzzTarget = FuzzTarget.stun
