#!/usr/bin/env bash
# libFuzzer campaigns over every parser that reads bytes from the network or the user.
#
#   scripts/fuzz.sh [TARGET...] [--runs N]   build, then run each TARGET (default: all) N times (default 1000000)
#   scripts/fuzz.sh --ci                     every target, 20000 runs each, fixed seed, debug build: the CI budget
#   scripts/fuzz.sh --list                   the targets, one a line
#
# Each target is Fuzz/<name>.swift (which FuzzTarget it is) linked with Fuzz/Entry.swift
# against the library targets built with -sanitize=fuzzer,address in .build/fuzz, into
# .build/fuzz/<configuration>/fuzzers/<name>. The
# corpus starts from Tests/Fixtures, Scenarios and the target's generated seeds
# (FuzzTarget.seeds) and grows in .build/fuzz/corpus/<name>. A crash is written to
# .build/fuzz/crashes/<name>/: check it in as Tests/Fixtures/fuzz/<name>/<what-it-is>
# so that FuzzRegressionTests replays it. Prints one table row per target (runs, exec/s,
# crashes), also written to .build/fuzz/summary.md, and exits 1 when any target crashed.
cd "$(dirname "$0")/.."
source scripts/setup.sh

scratch=.build/fuzz
runs=1000000
seed_flag=()
# Campaigns run optimized code (the parsers run a million times, and -Onone code is
# several times slower under ASan); CI's 20,000 runs cost less than the optimized build.
configuration=release
targets=()
list_targets() { for entry in Fuzz/*.swift; do [ "$entry" = Fuzz/Entry.swift ] || basename "$entry" .swift; done; }
while [ $# -gt 0 ]; do
    case "$1" in
        --list) list_targets; exit 0 ;;
        --runs) runs=$2; shift ;;
        --ci) runs=20000; seed_flag=(-seed=1); configuration=debug ;;
        -*) echo "usage: scripts/fuzz.sh [TARGET...] [--runs N] | --ci | --list" >&2; exit 2 ;;
        *)
            if [ ! -f "Fuzz/$1.swift" ]; then echo "unknown target '$1'; the targets are: $(list_targets | tr '\n' ' ')" >&2; exit 2; fi
            targets+=("$1") ;;
    esac
    shift
done
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(list_targets)

require_swift
ensure_packages "${RTCSWARM_BUILD_PACKAGES[@]}"
# libFuzzer's runtime ships with the Swift toolchain's clang; without it nothing links.
if ! swiftc -print-target-info >/dev/null || [ -z "$(find "$(dirname "$(dirname "$(command -v swiftc)")")/lib" -name 'libclang_rt.fuzzer-*.a' -print -quit)" ]; then
    echo "error: this Swift toolchain has no libFuzzer runtime (libclang_rt.fuzzer-*.a)" >&2
    exit 3
fi

# The library targets, instrumented for coverage and ASan.
swift build -c "$configuration" --scratch-path "$scratch" --target FuzzTargets -Xswiftc -sanitize=fuzzer,address >&2
build=$scratch/$configuration
optimize=()
[ "$configuration" = debug ] || optimize=(-O)
modules=(RTCBase STUN RTP SRTP SCTP SDP Net Signaling Scenario Metrics Impairment Media FuzzTargets)
objects=()
for module in "${modules[@]}"; do objects+=("$build/$module.build"/*.o); done
module_maps=()
for map in Sources/C*/module.modulemap; do module_maps+=(-Xcc "-fmodule-map-file=$map"); done
read -r -a libraries <<<"$(pkg-config --libs openssl libsrtp2 opus vpx openh264)"
mkdir -p "$build/fuzzers"

# link NAME: the fuzzer NAME, unless it is newer than its entry files and every object.
link() {
    local binary=$build/fuzzers/$1
    [ -x "$binary" ] && [ -z "$(find "Fuzz/$1.swift" Fuzz/Entry.swift "${objects[@]}" -newer "$binary" -print -quit)" ] && return 0
    swiftc "${optimize[@]}" -parse-as-library -sanitize=fuzzer,address -use-ld=lld -I "$build/Modules" "${module_maps[@]}" \
        Fuzz/Entry.swift "Fuzz/$1.swift" "${objects[@]}" "${libraries[@]}" -o "$binary" 2>&1 \
        | { grep -v 'Cannot export local symbol' || true; } >&2
}

# Swift's own crash handler would race ASan for the report; libFuzzer turns a trap into
# a crash report itself. Leak checks are off: Swift's lazily made globals outlive a run.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
summary=$scratch/summary.md
printf '| target | runs | exec/s | seconds | corpus | crashes |\n|---|---:|---:|---:|---:|---:|\n' | tee "$summary"
failed=0
for target in "${targets[@]}"; do
    link "$target"
    corpus=$scratch/corpus/$target
    crashes=$scratch/crashes/$target
    log=$scratch/logs/$target.log
    mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
    touch "$scratch/started-$target"
    set +e
    FUZZ_SEED_DIR=$corpus FUZZ_ROOT=$PWD "$build/fuzzers/$target" -runs="$runs" "${seed_flag[@]}" -print_final_stats=1 \
        -timeout=30 -rss_limit_mb=1536 -max_len=8192 -artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1
    status=$?
    set -e
    final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
    seconds=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
    # Only this run's findings: an earlier one stays in the folder until someone checks it in.
    found=$(find "$crashes" -type f -newer "$scratch/started-$target" | wc -l)
    printf '| %s | %s | %s | %s | %s | %s |\n' "$target" "$(final_stat number_of_executed_units)" "$(final_stat average_exec_per_sec)" \
        "${seconds:-?}" "$(find "$corpus" -type f | wc -l)" "$found" | tee -a "$summary"
    if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
        failed=1
        echo "$target: exit $status; see $log and $crashes/" >&2
        grep -m 1 -E 'ERROR: (AddressSanitizer|libFuzzer)|Fatal error' "$log" >&2 || true
    fi
done
exit "$failed"
