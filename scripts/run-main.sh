#!/usr/bin/env bash
# The main job on the embedded default, on a fresh Debian machine: installs what is
# missing, builds in release mode, runs, and prints the report folder as its last line.
# The scenario is Scenarios/rooms-stress.json5 on the built-in room server (no external
# server); arguments go to `rtcswarm run` (e.g. --set groups[0].count=2000).
cd "$(dirname "$0")/.."
source scripts/setup.sh
require_swift
ensure_packages "${RTCSWARM_BUILD_PACKAGES[@]}"
swift build -c release --product rtcswarm >&2
exec .build/release/rtcswarm run Scenarios/rooms-stress.json5 "$@"
