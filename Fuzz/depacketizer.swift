import FuzzTargets

/// libFuzzer target `depacketizer`: see `FuzzTarget.depacketizer`.
let fuzzTarget = FuzzTarget.depacketizer
