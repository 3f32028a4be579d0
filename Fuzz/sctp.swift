import FuzzTargets

/// libFuzzer target `sctp`: see `FuzzTarget.sctp`.
let fuzzTarget = FuzzTarget.sctp
