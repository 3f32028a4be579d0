import FuzzTargets

/// libFuzzer target `bitstream`: see `FuzzTarget.bitstream`.
let fuzzTarget = FuzzTarget.bitstream
