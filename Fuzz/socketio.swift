import FuzzTargets

/// libFuzzer target `socketio`: see `FuzzTarget.socketio`.
let fuzzTarget = FuzzTarget.socketio
