import FuzzTargets

/// libFuzzer target `sdp`: see `FuzzTarget.sdp`.
let fuzzTarget = FuzzTarget.sdp
