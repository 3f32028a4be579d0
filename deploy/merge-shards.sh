#!/bin/sh
# The merge step of a sharded run (the image's rtcswarm-merge-shards; Kubernetes' merge
# Job and docker-compose's shards profile run it): waits until each of the
# RTCSWARM_SHARDS shards has written $RTCSWARM_REPORTS/shard-I/report.json, or until
# RTCSWARM_MERGE_WAIT_S seconds have passed, then merges all N folders into
# $RTCSWARM_REPORTS/merged. A shard that wrote nothing is named in the merged verdict,
# which fails (exit 4).
set -eu
shards=${RTCSWARM_SHARDS:?set RTCSWARM_SHARDS to the number of shards}
reports=${RTCSWARM_REPORTS:-/reports}
deadline=$(( $(date +%s) + ${RTCSWARM_MERGE_WAIT_S:-900} ))
folders=""
i=0
while [ "$i" -lt "$shards" ]; do
    folders="$folders $reports/shard-$i"
    i=$((i + 1))
done
written() {
    n=0
    for folder in $folders; do [ -e "$folder/report.json" ] && n=$((n + 1)); done
    echo "$n"
}
while [ "$(written)" -lt "$shards" ] && [ "$(date +%s)" -lt "$deadline" ]; do
    sleep 5
done
# $folders splits into one argument per shard folder (report folders have no spaces).
# shellcheck disable=SC2086
exec rtcswarm report merge $folders --out "$reports/merged"
