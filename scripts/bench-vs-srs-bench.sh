#!/usr/bin/env bash
# Players through SRS, rtcswarm beside srs-bench (the tool SRS users would pick instead),
# measured side by side in one run on this machine (issue 23).
#
#   scripts/bench-vs-srs-bench.sh [--players 10,50,100,200] [--publishers N,...] [--burst N]
#                                 [--seconds 30] [--reps 2] [--workers 1]
#
# One SRS (SRS_URL, or ../shared/srs/start-srs.sh started on ports 2985/9000 and stopped at
# the end), one publisher of srs-bench's sample files (so neither tool's own publisher is
# measured), then for each player count the two tools' players in turn (A B A B ...): CPU and
# RSS of each tool's whole process tree from /proc over a steady window, SRS's CPU beside
# them, and what SRS sent each player. srs-bench is found through SRS_BENCH (default
# ../shared/srs-bench/srs_bench). A benchmark, never a test: it prints the table and writes
# it with the raw samples to Reports/bench-vs-srs-bench-<UTC time>/.
cd "$(dirname "$0")/.."
source scripts/setup.sh

args=("$@")
for arg in "$@"; do
    case "$arg" in -h|--help) exec python3 scripts/bench-vs-srs-bench.py --help ;; esac
done

require_swift
ensure_packages "${RTCSWARM_BUILD_PACKAGES[@]}" libsrt1.5-openssl curl
swift build -c release --product rtcswarm >&2

export SRS_BENCH=${SRS_BENCH:-../shared/srs-bench/srs_bench}
if [ ! -x "$SRS_BENCH" ]; then
    echo "srs-bench not found at $SRS_BENCH: set SRS_BENCH to its binary (github.com/ossrs/srs-bench, branch feature/rtc)" >&2
    exit 2
fi
if [ -z "${SRS_URL:-}" ]; then
    start=../shared/srs/start-srs.sh
    if [ ! -x "$start" ]; then
        echo "no SRS: set SRS_URL to a running SRS (for example the docker-compose one) or provide $start" >&2
        exit 2
    fi
    work=$(mktemp -d)
    eval "$("$start" "$work" 2985 9000)"
    export SRS_URL
    trap 'kill -KILL "$SRS_PID" 2>/dev/null; rm -rf "$work"' EXIT
fi
export SRS_PID=${SRS_PID:-}

out=Reports/bench-vs-srs-bench-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
python3 scripts/bench-vs-srs-bench.py --rtcswarm .build/release/rtcswarm --out "$out" "${args[@]}"
