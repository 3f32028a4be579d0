#!/usr/bin/env bash
# The main job on the embedded default, on a fresh Debian machine: installs what is
# missing, builds in release mode, runs, and prints the report folder as its last line.
# Until `rtcswarm run` exists this is `rtcswarm selfcheck`: real UDP peers on loopback.
cd "$(dirname "$0")/.."
source scripts/setup.sh
require_swift
ensure_packages "${RTCSWARM_BUILD_PACKAGES[@]}"
swift build -c release --product rtcswarm >&2
exec .build/release/rtcswarm selfcheck "$@"
