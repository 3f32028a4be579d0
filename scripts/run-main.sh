#!/usr/bin/env bash
# The main job on the embedded default, on a fresh Debian machine: installs what is
# missing, builds in release mode, runs, and prints the report folder as its last line.
# The scenario is Scenarios/quickstart.json5: 20 one-to-one WebRTC calls (VP8 + Opus)
# through the built-in room server, no external server; arguments go to `rtcswarm run`
# (e.g. --set duration_s=60).
cd "$(dirname "$0")/.."
source scripts/setup.sh
require_swift
ensure_packages "${RTCSWARM_BUILD_PACKAGES[@]}"
swift build -c release --product rtcswarm >&2
exec .build/release/rtcswarm run Scenarios/quickstart.json5 "$@"
