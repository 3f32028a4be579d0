#!/usr/bin/env python3
"""Players through SRS: rtcswarm beside srs-bench, side by side in one run (issue 23).

Run through scripts/bench-vs-srs-bench.sh, which builds rtcswarm, finds srs-bench and SRS
and passes them here. For each player count the tools take turns (A B A B ...); each turn
starts that tool's players of the one published stream, waits until they are all playing
(SRS's /api/v1/clients says so) and a settling time, then measures over a steady window:

- CPU of the tool's whole process tree (utime + stime from /proc/PID/stat of the process
  and every descendant), in ms per player-second;
- RSS of that tree at the end of the window (sum of VmRSS);
- SRS's CPU over the same window: a turn where SRS used 90 % of a core or more is void,
  because then SRS, not the tool, set the pace;
- what SRS sent each of the tool's players (send_bytes from /api/v1/clients), in kbit/s,
  the same third-party figure for both tools, and how many of them played.

rtcswarm's own report adds its loss and packets per player-second; srs-bench reports none.

`--publishers N,...` measures publishers the same way (each tool's N publishers of the same
Annex-B file, srs-bench's sample, each on a stream of its own; what SRS received from each),
and `--burst N` a burst of N players started 1 ms apart: players playing per second (N over
the time from the first start to the last first media packet; none, with how many never
played, unless all did) and the setup time of each
player from its start to its first media packet (rtcswarm: `first_packet_ms`; srs-bench:
its log's "Run play" to its first "Got track"), with each tool's CPU over the burst.
"""
import re
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

CLK_TCK = os.sysconf("SC_CLK_TCK")
SATURATED_SRS_PCT = 90.0


def parse_args():
    parser = argparse.ArgumentParser(prog="scripts/bench-vs-srs-bench.sh",
                                     description="Players through SRS: rtcswarm beside srs-bench, CPU and RSS side by side.")
    parser.add_argument("--players", default="10,50,100,200", help="player counts, comma-separated (default 10,50,100,200)")
    parser.add_argument("--seconds", type=int, default=30, help="steady window per turn in seconds, at least 10 (default 30)")
    parser.add_argument("--reps", type=int, default=2, help="turns per tool and player count (default 2)")
    parser.add_argument("--workers", type=int, default=1, help="rtcswarm worker processes (default 1)")
    parser.add_argument("--settle", type=int, default=5, help="seconds between the last player playing and the window (default 5)")
    parser.add_argument("--publishers", default="", help="publisher counts to measure too, comma-separated (default none)")
    parser.add_argument("--burst", type=int, default=0, help="also start a burst of this many players per tool and turn (default 0: none)")
    parser.add_argument("--rtcswarm", default=".build/release/rtcswarm", help=argparse.SUPPRESS)
    parser.add_argument("--out", default=".", help=argparse.SUPPRESS)
    args = parser.parse_args()
    for name in ("players", "publishers"):
        text = getattr(args, name)
        try:
            setattr(args, name, [int(n) for n in text.split(",")] if text else [])
        except ValueError:
            parser.error(f"--{name} must be numbers separated by commas, got {text!r}")
    if any(n < 1 for n in args.players + args.publishers) or args.reps < 1 or args.workers < 1 or args.burst < 0:
        parser.error("--players, --publishers, --reps and --workers must be at least 1, --burst at least 0")
    if args.seconds < 10:
        parser.error(f"--seconds must be at least 10 (SRS updates a client's byte counts every few seconds), got {args.seconds}")
    return args


# --- /proc ---------------------------------------------------------------------------

def children_of():
    """Every process's children, from /proc/*/stat (field 4 is the parent)."""
    tree = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        tree.setdefault(int(fields[1]), []).append(int(entry))
    return tree


def process_tree(root):
    tree, pids, todo = children_of(), [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        todo.extend(tree.get(pid, []))
    return pids


def cpu_seconds(pids):
    """utime + stime (fields 14 and 15 of /proc/PID/stat) summed over pids."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / CLK_TCK


def rss_mb(pids):
    total_kb = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                total_kb += next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
        except OSError:
            pass
    return total_kb / 1024


# --- SRS -------------------------------------------------------------------------------

def srs_get(url, path):
    with urllib.request.urlopen(url + path, timeout=5) as response:
        return json.load(response)


def clients_on(url, kind, streams, since):
    """SRS's clients of `kind` (rtc-play, rtc-publish) on a stream named by `streams` (a
    name, or a prefix ending in "*") that connected after `since` (time.time()): {client id:
    bytes SRS sent a player or received from a publisher}. Older clients are an earlier
    turn's, still timing out."""
    now = time.time()
    clients = srs_get(url, "/api/v1/clients/?count=10000").get("clients", [])
    named = (lambda n: n.startswith(streams[:-1])) if streams.endswith("*") else (lambda n: n == streams)
    field = "send_bytes" if kind == "rtc-play" else "recv_bytes"
    return {c["id"]: c.get(field, 0) for c in clients
            if c.get("type") == kind and named(c.get("name", "")) and c.get("alive", 1e9) <= now - since + 1}


def publisher_alive(url, stream):
    clients = srs_get(url, "/api/v1/clients/?count=10000").get("clients", [])
    return any(c.get("publish") and c.get("name") == stream for c in clients)


# --- the tools -------------------------------------------------------------------------

def webrtc_url(srs_url, stream):
    host = urllib.parse.urlsplit(srs_url).netloc
    return f"webrtc://{host}/live/{stream}"


def start_publisher(args, bench, media, srs_url, stream, log):
    process = subprocess.Popen([bench, "-sfu", "rtc", "-pr", webrtc_url(srs_url, stream),
                                "-sa", os.path.join(media, "avatar.ogg"), "-sv", os.path.join(media, "bench-640x360.h264"),
                                "-fps", "30"], stdout=log, stderr=subprocess.STDOUT)
    for _ in range(100):
        if publisher_alive(srs_url, stream):
            time.sleep(2)  # the first keyframe
            return process
        if process.poll() is not None:
            break
        time.sleep(0.1)
    process.kill()
    sys.exit(f"srs-bench's publisher did not get on {srs_url} (see {log.name})")


def srs_bench(bench, media, srs_url, job, log):
    """srs-bench's players of `job.stream` or publishers of `job.stream`_0.. (its %d)."""
    delay = ["-delay", str(job.delay_ms)]
    if job.role == "player":
        command = ["-sr", webrtc_url(srs_url, job.stream), "-nn", str(job.count)]
    else:
        command = ["-pr", webrtc_url(srs_url, job.stream + "_%d"), "-sn", str(job.count),
                   "-sa", os.path.join(media, "avatar.ogg"), "-sv", os.path.join(media, "bench-640x360.h264"), "-fps", "30"]
    return subprocess.Popen([bench, "-sfu", "rtc"] + command + delay, stdout=log, stderr=subprocess.STDOUT)


def rtcswarm(args, media, srs_url, job, duration_s, folder, log):
    """rtcswarm's players of `job.stream`, or publishers of the same file as srs-bench's on
    `job.stream`-0.. (per_publisher), arriving `job.delay_ms` apart."""
    if job.role == "player":
        group = {"role": "player", "count": job.count, "stream": {"name": job.stream},
                 "media": {"video": {"codec": "h264", "resolution": "640x360"}}}
    else:
        group = {"role": "publisher", "count": job.count, "stream": {"name": job.stream, "per_publisher": True},
                 "media": {"video": {"codec": "h264", "file": os.path.join(media, "bench-640x360.h264"), "fps": 30}}}
    group["arrival"] = {"rate_per_s": 1000 / job.delay_ms}
    scenario = os.path.join(folder, "scenario.json5")
    with open(scenario, "w") as f:
        f.write(json.dumps({"name": "bench-vs-srs-bench", "duration_s": duration_s, "target": {"kind": "srs", "url": srs_url},
                            "run": {"decode_sample_pct": 0}, "groups": [group]}))
    return subprocess.Popen([args.rtcswarm, "run", scenario, "--out", os.path.join(folder, "report"),
                             "--workers", str(args.workers)], stdout=log, stderr=subprocess.STDOUT)


class Job:
    """What one turn starts: `count` players of `stream` or publishers of streams named
    after it, `delay_ms` apart."""
    def __init__(self, role, count, stream, delay_ms):
        self.role, self.count, self.stream, self.delay_ms = role, count, stream, delay_ms
        self.kind = "rtc-play" if role == "player" else "rtc-publish"
        self.streams = stream if role == "player" else stream + "*"


def rtcswarm_figures(folder):
    """Loss and packets per player-second from rtcswarm's report (whole run)."""
    try:
        with open(os.path.join(folder, "report", "report.json")) as f:
            report = json.load(f)
    except (OSError, ValueError):
        return {}
    peers = [p for cell in report["cells"] for p in cell["peers"]]
    streams = [s for p in peers for s in p["streams"]]
    expected = sum(s["packetsExpected"] for s in streams)
    seconds = sum(max(0, p["endedAtMs"] - p["startedAtMs"]) for p in peers) / 1000
    return {"loss_pct": sum(s["lossPct"] * s["packetsExpected"] for s in streams) / expected if expected else None,
            "pps": sum(s["packetsReceived"] for s in streams) / seconds if seconds else None,
            "completed": sum(1 for p in peers if p["outcome"] == "completed"), "peers": len(peers)}


def start_tool(args, tool, job, srs_url, bench, media, duration_s, folder):
    os.makedirs(folder, exist_ok=True)
    log = open(os.path.join(folder, "tool.log"), "w")
    if tool == "srs-bench":
        return srs_bench(bench, media, srs_url, job, log), log
    return rtcswarm(args, media, srs_url, job, duration_s, folder, log), log


def stop_tool(tool, process, log):
    if tool == "srs-bench":
        process.terminate()
    process.wait(timeout=60)
    log.close()


def turn(args, tool, job, srs_url, srs_pid, bench, media, folder):
    """One tool's players or publishers: wait until all are on SRS, settle, measure the
    window, stop."""
    started = time.time()
    ramp_s = job.count * job.delay_ms / 1000 + 10
    process, log = start_tool(args, tool, job, srs_url, bench, media, int(ramp_s + args.settle + args.seconds + 3), folder)
    try:
        deadline = started + ramp_s
        while len(clients_on(srs_url, job.kind, job.streams, started)) < job.count and time.time() < deadline and process.poll() is None:
            time.sleep(0.5)
        time.sleep(args.settle)
        pids = process_tree(process.pid)
        before = clients_on(srs_url, job.kind, job.streams, started)
        cpu0, srs0, t0 = cpu_seconds(pids), cpu_seconds([srs_pid]) if srs_pid else None, time.monotonic()
        time.sleep(args.seconds)
        pids = process_tree(process.pid)
        cpu1, srs1, t1 = cpu_seconds(pids), cpu_seconds([srs_pid]) if srs_pid else None, time.monotonic()
        rss = rss_mb(pids)
        after = clients_on(srs_url, job.kind, job.streams, started)
    finally:
        stop_tool(tool, process, log)
    window = t1 - t0
    active = [c for c in after if c in before and after[c] > before[c]]
    row = {"tool": tool, "role": job.role, "players": job.count, "playing": len(active),
           "cpu_ms_per_player_s": (cpu1 - cpu0) * 1000 / (window * max(1, len(active))),
           "cpu_pct": (cpu1 - cpu0) / window * 100, "rss_mb": rss,
           "srs_cpu_pct": (srs1 - srs0) / window * 100 if srs_pid else None,
           "kbps_per_player": statistics.mean((after[c] - before[c]) * 8 / 1000 / window for c in active) if active else 0}
    if tool == "rtcswarm" and job.role == "player":
        row.update(rtcswarm_figures(folder))
    row["void"] = row["srs_cpu_pct"] is not None and row["srs_cpu_pct"] >= SATURATED_SRS_PCT
    return row


LOG_TIME = re.compile(r"(\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d+) \[\d+\]\[(\d+)\] (Run play|Got track)")


def srs_bench_starts_and_media(log_path):
    """Per srs-bench player: (its log's "Run play", its first "Got track"), in seconds."""
    starts, firsts = {}, {}
    with open(log_path, errors="replace") as f:
        for line in f:
            match = LOG_TIME.search(line)
            if match:
                day, fraction = match.group(1).split(".")
                at = time.mktime(time.strptime(day, "%Y/%m/%d %H:%M:%S")) + float("0." + fraction)
                (starts if match.group(3) == "Run play" else firsts).setdefault(match.group(2), at)
    return [(starts[c], firsts.get(c)) for c in starts]


def rtcswarm_starts_and_media(folder):
    """Per rtcswarm player: (its start, its first media packet), in seconds of the run:
    setup_ms runs from the start to DTLS done, first_packet_ms from there (METRICS.md)."""
    with open(os.path.join(folder, "report", "report.json")) as f:
        report = json.load(f)
    peers = [p for c in report["cells"] for p in c["peers"]]
    def media_at(phases):
        if "setup_ms" not in phases or "first_packet_ms" not in phases:
            return None
        return phases["setup_ms"] + phases["first_packet_ms"]
    return [(p["startedAtMs"] / 1000, (p["startedAtMs"] + media_at(p["phases"])) / 1000 if media_at(p["phases"]) is not None else None)
            for p in peers]


BURST_S = 10


def burst(args, tool, job, srs_url, bench, media, folder):
    """A burst of players 1 ms apart, each tool's own record of when each started and got
    its first media packet (SRS lists a client at its offer, before any media): how fast
    they all played, each one's setup, and the tool's CPU until the last one played."""
    t0 = time.monotonic()
    process, log = start_tool(args, tool, job, srs_url, bench, media, BURST_S, folder)
    cpu = []  # (seconds since start, CPU seconds)
    try:
        while time.monotonic() - t0 < BURST_S and process.poll() is None:
            cpu.append((time.monotonic() - t0, cpu_seconds(process_tree(process.pid))))
            time.sleep(0.05)
    finally:
        stop_tool(tool, process, log)
    players = (srs_bench_starts_and_media(os.path.join(folder, "tool.log")) if tool == "srs-bench"
               else rtcswarm_starts_and_media(folder))
    setups = sorted((media_at - start) * 1000 for start, media_at in players if media_at is not None)
    all_played = len(setups) == job.count and players
    # From the first player's start to the last first packet of those that got one.
    span = max(m for _, m in players if m is not None) - min(s for s, _ in players) if setups else None
    # The tool's CPU up to then (rtcswarm's run clock starts ~0.1 s after the process,
    # srs-bench's first line at once).
    until = (span or BURST_S) + (0.1 if tool == "rtcswarm" else 0)
    return {"tool": tool, "burst": job.count, "with_media": len(setups),
            "players_per_s": job.count / span if span and all_played else None,
            "setup_p50_ms": setups[len(setups) // 2] if setups else None,
            "setup_p95_ms": setups[min(len(setups) - 1, int(len(setups) * 0.95))] if setups else None,
            "cpu_s": next((c for t, c in cpu if t >= until), cpu[-1][1] if cpu else None)}


def number(value, digits=2):
    return "" if value is None else f"{value:.{digits}f}"


def table(rows, counts, role):
    rows = [r for r in rows if r["role"] == role]
    if not rows:
        return ""
    noun = "players" if role == "player" else "publishers"
    lines = [f"| {noun} | tool | on SRS | CPU ms per {role}-s | CPU % | RSS MB | SRS CPU % | kbit/s per {role} (SRS) | loss % | pkt/s per {role} |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row['players']} | {row['tool']}{' (void: SRS saturated)' if row['void'] else ''} | {row['playing']} | "
                     f"{number(row['cpu_ms_per_player_s'])} | {number(row['cpu_pct'], 1)} | {number(row['rss_mb'], 1)} | "
                     f"{number(row['srs_cpu_pct'], 1)} | {number(row['kbps_per_player'], 0)} | {number(row.get('loss_pct'))} | "
                     f"{number(row.get('pps'), 0)} |")
    lines += ["", f"| {noun} | srs-bench ms per {role}-s | rtcswarm ms per {role}-s | ratio | srs-bench RSS MB | rtcswarm RSS MB |",
              "|---|---|---|---|---|---|"]
    for players in counts:
        def valid(tool):
            return [r for r in rows if r["players"] == players and r["tool"] == tool and not r["void"] and r["playing"] == players]
        bench, swarm = valid("srs-bench"), valid("rtcswarm")
        if not bench or not swarm:
            lines.append(f"| {players} | | | void: a turn saturated SRS or lost {noun} | | |")
            continue
        b = statistics.median(r["cpu_ms_per_player_s"] for r in bench)
        s = statistics.median(r["cpu_ms_per_player_s"] for r in swarm)
        lines.append(f"| {players} | {number(b)} | {number(s)} | {number(s / b)} | "
                     f"{number(statistics.median(r['rss_mb'] for r in bench), 0)} | {number(statistics.median(r['rss_mb'] for r in swarm), 0)} |")
    return "\n".join(lines)


def playing_rate(result):
    """Players playing per second, which has no value until every player of the burst played."""
    rate = result["players_per_s"]
    return f"{rate:.0f}" if rate is not None else f"none: {result['burst'] - result['with_media']} never played"


def burst_table(bursts):
    if not bursts:
        return ""
    lines = ["| burst | tool | with media | players playing per s | setup p50 ms | setup p95 ms | CPU s |", "|---|---|---|---|---|---|---|"]
    for b in bursts:
        lines.append(f"| {b['burst']} | {b['tool']} | {b['with_media']} | {playing_rate(b)} | "
                     f"{number(b['setup_p50_ms'], 0)} | {number(b['setup_p95_ms'], 0)} | {number(b['cpu_s'])} |")
    return "\n".join(lines)


def main():
    args = parse_args()
    srs_url, bench = os.environ["SRS_URL"].rstrip("/"), os.environ["SRS_BENCH"]
    srs_pid = int(os.environ.get("SRS_PID") or srs_get(srs_url, "/api/v1/summaries").get("pid", 0) or 0) or None
    media = os.environ.get("SRS_BENCH_MEDIA", os.path.dirname(os.path.abspath(bench)))
    stream = f"bench{os.getpid()}"
    publisher_log = open(os.path.join(args.out, "publisher.log"), "w")
    publisher = start_publisher(args, bench, media, srs_url, stream, publisher_log)
    rows, bursts = [], []
    plan = [Job("player", n, stream, 20) for n in args.players]
    plan += [Job("publisher", n, f"pub{os.getpid()}-{n}", 20) for n in args.publishers]
    try:
        for rep in range(args.reps):
            for job in plan:
                for tool in ("srs-bench", "rtcswarm"):
                    if publisher.poll() is not None or not publisher_alive(srs_url, stream):
                        publisher.kill()
                        publisher = start_publisher(args, bench, media, srs_url, stream, publisher_log)
                    row = turn(args, tool, Job(job.role, job.count, f"{job.stream}{rep}{tool[0]}" if job.role == "publisher" else job.stream,
                                               job.delay_ms),
                               srs_url, srs_pid, bench, media, os.path.join(args.out, f"{job.role}-{job.count}-{rep}-{tool}"))
                    rows.append(row)
                    print(f"{job.count} {job.role}s, {tool} turn {rep + 1}/{args.reps}: {row['playing']} on SRS, "
                          f"{number(row['cpu_ms_per_player_s'])} ms per {job.role}-s, RSS {number(row['rss_mb'], 1)} MB, "
                          f"SRS {number(row['srs_cpu_pct'], 1)} %", file=sys.stderr, flush=True)
                    time.sleep(3)
            for tool in ("srs-bench", "rtcswarm") if args.burst else ():
                result = burst(args, tool, Job("player", args.burst, stream, 1), srs_url, bench, media,
                               os.path.join(args.out, f"burst-{args.burst}-{rep}-{tool}"))
                bursts.append(result)
                print(f"burst of {args.burst}, {tool} turn {rep + 1}/{args.reps}: {result['with_media']} with media, "
                      f"{playing_rate(result)} playing per s, setup p95 {number(result['setup_p95_ms'], 0)} ms",
                      file=sys.stderr, flush=True)
                time.sleep(5)
    finally:
        publisher.terminate()
        publisher.wait(timeout=30)
    result = "\n\n".join(t for t in (table(rows, args.players, "player"), table(rows, args.publishers, "publisher"),
                                      burst_table(bursts)) if t)
    with open(os.path.join(args.out, "bench.md"), "w") as f:
        f.write(result + "\n")
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump({"turns": rows, "bursts": bursts}, f, indent=1)
    print(result)
    print(f"\nwritten to {args.out}/bench.md and bench.json", file=sys.stderr)


if __name__ == "__main__":
    main()
