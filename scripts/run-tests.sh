#!/usr/bin/env bash
# The test suite on a fresh Debian machine: installs what is missing, builds, and runs
# every test. Exits non-zero on any failure. Extra arguments go to `swift test`, except
# `--update-interop` (or RTCSWARM_UPDATE_INTEROP=1): copy the interop matrix to INTEROP.md.
cd "$(dirname "$0")/.."
update_interop=${RTCSWARM_UPDATE_INTEROP:-0}
args=()
for arg in "$@"; do
    if [ "$arg" = "--update-interop" ]; then update_interop=1; else args+=("$arg"); fi
done
source scripts/setup.sh

# Renders the interop matrix from this run's results into Reports/interop-<UTC time>/,
# whatever the tests' outcome; with --update-interop also into INTEROP.md. Never fails
# the run: the tests' status is what counts.
render_interop_matrix() {
    if ! compgen -G "$RTCSWARM_INTEROP_RESULTS/*.json" >/dev/null; then
        echo "interop matrix: no interop results in this run"
        return 0
    fi
    local out
    out="Reports/interop-$(date -u +%Y%m%dT%H%M%SZ)/INTEROP.md"
    if ! .build/debug/rtcswarm interop-matrix "$RTCSWARM_INTEROP_RESULTS" --out "$out" >/dev/null; then
        echo "interop matrix: could not render it from $RTCSWARM_INTEROP_RESULTS"
        return 0
    fi
    echo "interop matrix: $out"
    if [ "$update_interop" = "1" ]; then
        cp "$out" INTEROP.md
        echo "interop matrix: copied to INTEROP.md"
    fi
}
require_swift
# docker-compose validates the compose file; chromium renders report.html; janus and
# coturn are interop targets (TARGETS.md); tshark cross-checks loss and jitter against a
# capture on lo; ffmpeg's ssim and psnr filters check rtcswarm's SSIM and PSNR; cc builds the
# loopback shim below; Go and Debian's Pion sources build the Pion test server below;
# prometheus scrapes a run's --metrics-listen (PrometheusScrapeTests); nftables drops UDP
# in the namespace where rtcswarm and Chromium set up beside each other (BrowserCohortSetupTests).
ensure_packages "${RTCSWARM_BUILD_PACKAGES[@]}" docker-compose chromium janus coturn tshark ffmpeg gcc libc6-dev iproute2 util-linux golang-go golang-github-pion-webrtc.v3-dev prometheus nftables
# Independent peers and servers the interop tests run against (TARGETS.md).
ensure_venv .venv Tests/Interop/requirements.txt
# The mock OWT portal on Engine.IO 3 (python-socketio 4), as OWT's Socket.IO 2.x portals spoke.
ensure_venv .venv-eio3 Tests/Interop/requirements-eio3.txt
# kubernetes-validate checks deploy/kubernetes offline (KubernetesManifestTests).
ensure_venv .venv-deploy deploy/requirements.txt
# LD_PRELOAD shim that lets libnice-based servers (Janus) gather 127.0.0.1 (Tests/Interop/README.md).
shim=.build/interop/libloopback_ifaddrs.so
if [ ! -e "$shim" ] || [ Tests/Interop/loopback_ifaddrs.c -nt "$shim" ]; then
    mkdir -p .build/interop
    cc -shared -fPIC -O2 -Wall -o "$shim" Tests/Interop/loopback_ifaddrs.c -ldl
fi
# The Pion WHIP/WHEP/echo test server, built offline (Tests/Interop/pion/build.sh).
pion=.build/interop/rtcswarm-pion
if [ ! -e "$pion" ] || [ -n "$(find Tests/Interop/pion -newer "$pion")" ]; then
    Tests/Interop/pion/build.sh .build/interop
fi
swift build --build-tests
# Tests that time rtcswarm against another client run it as users do, from its release build.
swift build -c release --product rtcswarm
# Each interop test writes its cell of the interop matrix here (InteropRecorder); a run
# starts empty so the matrix shows this run only.
export RTCSWARM_INTEROP_RESULTS=${RTCSWARM_INTEROP_RESULTS:-$PWD/.build/interop/results}
mkdir -p "$RTCSWARM_INTEROP_RESULTS"
rm -f "$RTCSWARM_INTEROP_RESULTS"/*.json
log=$(mktemp)
set +e
swift test --disable-swift-testing "${args[@]}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# libFuzzer over every parser, 20,000 inputs each (scripts/fuzz.sh --ci): a crash fails the run.
# Only for the whole suite: a filtered run (`--filter X`) is someone checking one thing.
if [ "${#args[@]}" -eq 0 ]; then
    scripts/fuzz.sh --ci || status=1
fi
render_interop_matrix
# Each failed test's own output (up to 80 lines of each, 300 characters a line), then its
# failure lines, once more at the end, where a CI that shows only the log's tail shows why.
failed_output=$(awk '/^Test Case .* started at / { kept = ""; lines = 0 }
    { if (lines < 80) kept = kept substr($0, 1, 300) "\n"; lines++ }
    /^Test Case .* failed \(/ { printf "%s", kept }' "$log" | tail -n 240)
if [ -n "$failed_output" ]; then
    echo "failed tests, their output again:"
    echo "$failed_output"
    echo "failures, last:"
    grep -E '^/.*: error: ' "$log" | cut -c1-400 | tail -n 20 || true
fi
# One plain closing line that any CI reads: "tests: N passed, N failed".
# XCTest's summary of the whole run follows its "All tests" (or "Selected tests") suite line
# and reads "Executed N tests, with [K tests skipped and ]F failures"; without that line the
# test process died before the end, and a sub-suite's count would mislead.
summary=$(grep -A1 -E "^Test Suite '(All tests|Selected tests)' (passed|failed)" "$log" | grep -E 'Executed [0-9]+ tests?, with ' | tail -n 1 || true)
executed=$(echo "$summary" | sed -nE 's/.*Executed ([0-9]+) tests?.*/\1/p')
failed=$(echo "$summary" | sed -nE 's/.* ([0-9]+) failures?.*/\1/p')
skipped=$(echo "$summary" | sed -nE 's/.*with ([0-9]+) tests? skipped.*/\1/p')
rm -f "$log"
if [ -n "$executed" ]; then
    echo "tests: $((executed - ${failed:-0} - ${skipped:-0})) passed, ${failed:-0} failed, ${skipped:-0} skipped"
else
    echo "tests: the test process ended before its summary (see the crash above)"
    [ "$status" -ne 0 ] || status=1
fi
exit "$status"
