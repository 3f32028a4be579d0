import FuzzTargets

/// libFuzzer target `websocket`: see `FuzzTarget.websocket`.
let fuzzTarget = FuzzTarget.websocket
