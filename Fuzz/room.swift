import FuzzTargets

/// libFuzzer target `room`: see `FuzzTarget.room`.
let fuzzTarget = FuzzTarget.room
