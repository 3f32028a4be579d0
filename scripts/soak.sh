#!/usr/bin/env bash
# Soak test: quickstart-sized calls (Scenarios/quickstart.json5) held for a long time in a
# release build, with each process's memory and CPU sampled from /proc every minute.
#
#   scripts/soak.sh [--minutes M] [--calls N] [--workers W]   defaults: 60 minutes, 20 calls, rtcswarm's default workers
#
# Writes soak.csv (minute, process, pid, RSS, CPU) and soak.md (RSS per minute, one column
# per process, and the verdict) into the run's report folder, Reports/soak-<UTC time>/,
# beside the run's own report. Memory is flat when no process's RSS grows by 5 % or more
# from the sample at minute 5 (the warm-up: encoders, buffers, the first keyframes) to the
# last one. Exit 0 when flat and the run passed, 1 when memory grew, else the run's exit
# code. CI does not run it (an hour).
cd "$(dirname "$0")/.."
source scripts/setup.sh

minutes=60
calls=20
workers=()
while [ $# -gt 0 ]; do
    case "$1" in
        --minutes) minutes=$2; shift ;;
        --calls) calls=$2; shift ;;
        --workers) workers=(--workers "$2"); shift ;;
        *) echo "usage: scripts/soak.sh [--minutes M] [--calls N] [--workers W]" >&2; exit 2 ;;
    esac
    shift
done
warmup=5
[ "$minutes" -gt "$warmup" ] || warmup=1
tolerance_pct=5

require_swift
ensure_packages "${RTCSWARM_BUILD_PACKAGES[@]}"
swift build -c release --product rtcswarm >&2
out=Reports/soak-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
csv=$out/soak.csv
echo "minute,process,pid,rss_kb,cpu_pct" >"$csv"

# The calls start within seconds (10/s), so the run lasts the soak plus a little.
.build/release/rtcswarm run Scenarios/quickstart.json5 --set "duration_s=$((minutes * 60 + 10))" \
    --set "groups[0].count=$calls" "${workers[@]}" --out "$out" >"$out/run.log" 2>&1 &
coordinator=$!
ticks_per_second=$(getconf CLK_TCK)
declare -A last_ticks last_seconds

# sample MINUTE: one CSV row per process (the coordinator, which holds the room server,
# and each worker it started), CPU as a share of one core since the previous sample, or
# since the process started for its first one.
sample() {
    local minute=$1 pid name rss ticks now fields
    for pid in $coordinator $(cat "/proc/$coordinator/task/"*/children 2>/dev/null); do
        [ -r "/proc/$pid/status" ] || continue
        if [ "$pid" = "$coordinator" ]; then
            name=coordinator
        else
            name=$(tr '\0' ' ' <"/proc/$pid/cmdline" | sed -n 's/.* --worker \([0-9]*\).*/worker-\1/p')
            [ -n "$name" ] || continue
        fi
        rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
        # /proc/PID/stat after the command name's closing parenthesis (which may itself
        # hold spaces): utime and stime are fields 14 and 15, starttime field 22.
        read -r -a fields <<<"$(sed 's/^.*) //' "/proc/$pid/stat")"
        ticks=$((fields[11] + fields[12]))
        now=$(cut -d ' ' -f 1 /proc/uptime)
        local since=${last_seconds[$pid]:-$(awk -v start="${fields[19]}" -v hz="$ticks_per_second" 'BEGIN { print start / hz }')}
        echo "$minute,$name,$pid,$rss,$(awk -v d=$((ticks - ${last_ticks[$pid]:-0})) -v hz="$ticks_per_second" -v now="$now" -v since="$since" \
            'BEGIN { printf "%.1f", (now > since) ? d * 100 / (hz * (now - since)) : 0 }')" >>"$csv"
        last_ticks[$pid]=$ticks
        last_seconds[$pid]=$now
    done
}

sample 0
for ((minute = 1; minute <= minutes; minute++)); do
    sleep 60
    kill -0 "$coordinator" 2>/dev/null || break
    sample "$minute"
done
set +e
wait "$coordinator"
run_status=$?
set -e

set +e
# soak.md: RSS in MB per minute, one column per process, then each process's growth
# from the warm-up sample to the last one and the verdict.
awk -F, -v warmup="$warmup" -v tolerance="$tolerance_pct" -v status="$run_status" -v out="$out/soak.md" '
    NR == 1 { next }
    {
        if (!($2 in seen)) { seen[$2] = 1; names[++count] = $2 }
        rss[$1, $2] = $4; cpu[$1, $2] = $5
        if ($1 > last) last = $1
        if ($1 >= warmup && !(($2) in base)) base[$2] = $4
        final[$2] = $4
    }
    END {
        header = "| minute |"; rule = "|---:|"
        for (i = 1; i <= count; i++) { header = header " " names[i] " RSS MB | " names[i] " CPU % |"; rule = rule "---:|---:|" }
        print header > out; print rule > out
        for (m = 0; m <= last; m++) {
            row = "| " m " |"
            for (i = 1; i <= count; i++) {
                n = names[i]
                row = row (((m, n) in rss) ? sprintf(" %.1f | %s |", rss[m, n] / 1024, cpu[m, n]) : " | |")
            }
            print row > out
        }
        print "" > out
        grew = 0
        for (i = 1; i <= count; i++) {
            n = names[i]
            if (!(n in base)) { print "- " n ": no sample after minute " warmup > out; grew = 1; continue }
            growth = (final[n] - base[n]) * 100 / base[n]
            flat = growth < tolerance
            if (!flat) grew = 1
            printf "- %s: %.1f MB at minute %d, %.1f MB at minute %d: %+.1f %% (%s)\n", n, base[n] / 1024, warmup, final[n] / 1024, last,
                growth, flat ? "flat" : "GREW" > out
        }
        printf "\nMemory %s (limit: under %d %% growth after minute %d); the run exited %d.\n",
            grew ? "GREW" : "is flat", tolerance, warmup, status > out
        exit grew
    }' "$csv"
memory_status=$?
set -e
cat "$out/soak.md"
echo "$out"
[ "$memory_status" -eq 0 ] || exit 1
exit "$run_status"
