import FuzzTargets

/// libFuzzer target `mediafile`: see `FuzzTarget.mediafile`.
let fuzzTarget = FuzzTarget.mediafile
