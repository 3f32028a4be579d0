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
"""
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
    parser.add_argument("--seconds", type=int, default=30, help="steady window per turn in seconds (default 30)")
    parser.add_argument("--reps", type=int, default=2, help="turns per tool and player count (default 2)")
    parser.add_argument("--workers", type=int, default=1, help="rtcswarm worker processes (default 1)")
    parser.add_argument("--settle", type=int, default=5, help="seconds between the last player playing and the window (default 5)")
    parser.add_argument("--rtcswarm", default=".build/release/rtcswarm", help=argparse.SUPPRESS)
    parser.add_argument("--out", default=".", help=argparse.SUPPRESS)
    args = parser.parse_args()
    try:
        args.players = [int(n) for n in args.players.split(",")]
    except ValueError:
        parser.error(f"--players must be numbers separated by commas, got {args.players!r}")
    if any(n < 1 for n in args.players) or args.seconds < 1 or args.reps < 1 or args.workers < 1:
        parser.error("--players, --seconds, --reps and --workers must be at least 1")
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


def players_on(url, stream, since):
    """SRS's rtc-play clients of the stream that connected after `since` (time.time()):
    {client id: bytes SRS sent it}. Older clients are an earlier turn's, still timing out."""
    now = time.time()
    clients = srs_get(url, "/api/v1/clients/?count=10000").get("clients", [])
    return {c["id"]: c.get("send_bytes", 0) for c in clients
            if c.get("type") == "rtc-play" and c.get("name") == stream and c.get("alive", 1e9) <= now - since + 1}


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


def srs_bench_players(bench, srs_url, stream, players, log):
    return subprocess.Popen([bench, "-sfu", "rtc", "-sr", webrtc_url(srs_url, stream), "-nn", str(players), "-delay", "20"],
                            stdout=log, stderr=subprocess.STDOUT)


def rtcswarm_players(args, srs_url, stream, players, duration_s, folder, log):
    scenario = os.path.join(folder, "players.json5")
    with open(scenario, "w") as f:
        f.write(json.dumps({
            "name": "bench-vs-srs-bench", "duration_s": duration_s, "target": {"kind": "srs", "url": srs_url},
            "run": {"decode_sample_pct": 0},
            "groups": [{"role": "player", "count": players, "stream": {"name": stream}, "arrival": {"rate_per_s": 50},
                        "media": {"video": {"codec": "h264", "resolution": "640x360"}}}],
        }))
    return subprocess.Popen([args.rtcswarm, "run", scenario, "--out", os.path.join(folder, "report"),
                             "--workers", str(args.workers)], stdout=log, stderr=subprocess.STDOUT)


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


def turn(args, tool, players, srs_url, srs_pid, bench, stream, folder):
    """One tool's players: wait until all play, settle, measure the window, stop."""
    os.makedirs(folder, exist_ok=True)
    log = open(os.path.join(folder, "tool.log"), "w")
    started = time.time()
    ramp_s = players / 50 + 10
    if tool == "srs-bench":
        process = srs_bench_players(bench, srs_url, stream, players, log)
    else:
        process = rtcswarm_players(args, srs_url, stream, players, int(ramp_s + args.settle + args.seconds + 3), folder, log)
    try:
        deadline = started + ramp_s
        while len(players_on(srs_url, stream, started)) < players and time.time() < deadline and process.poll() is None:
            time.sleep(0.5)
        time.sleep(args.settle)
        pids = process_tree(process.pid)
        before = players_on(srs_url, stream, started)
        cpu0, srs0, t0 = cpu_seconds(pids), cpu_seconds([srs_pid]) if srs_pid else None, time.monotonic()
        time.sleep(args.seconds)
        pids = process_tree(process.pid)
        cpu1, srs1, t1 = cpu_seconds(pids), cpu_seconds([srs_pid]) if srs_pid else None, time.monotonic()
        rss = rss_mb(pids)
        after = players_on(srs_url, stream, started)
    finally:
        if tool == "srs-bench":
            process.terminate()
        process.wait(timeout=60)
        log.close()
    window = t1 - t0
    playing = [c for c in after if c in before and after[c] > before[c]]
    row = {"tool": tool, "players": players, "playing": len(playing),
           "cpu_ms_per_player_s": (cpu1 - cpu0) * 1000 / (window * max(1, len(playing))),
           "cpu_pct": (cpu1 - cpu0) / window * 100, "rss_mb": rss,
           "srs_cpu_pct": (srs1 - srs0) / window * 100 if srs_pid else None,
           "kbps_per_player": statistics.mean((after[c] - before[c]) * 8 / 1000 / window for c in playing) if playing else 0}
    if tool == "rtcswarm":
        row.update(rtcswarm_figures(folder))
    row["void"] = row["srs_cpu_pct"] is not None and row["srs_cpu_pct"] >= SATURATED_SRS_PCT
    return row


def number(value, digits=2):
    return "" if value is None else f"{value:.{digits}f}"


def table(rows, players_list):
    lines = ["| players | tool | playing | CPU ms per player-s | CPU % | RSS MB | SRS CPU % | kbit/s per player (SRS) | loss % | pkt/s per player |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row['players']} | {row['tool']}{' (void: SRS saturated)' if row['void'] else ''} | {row['playing']} | "
                     f"{number(row['cpu_ms_per_player_s'])} | {number(row['cpu_pct'], 1)} | {number(row['rss_mb'], 1)} | "
                     f"{number(row['srs_cpu_pct'], 1)} | {number(row['kbps_per_player'], 0)} | {number(row.get('loss_pct'))} | "
                     f"{number(row.get('pps'), 0)} |")
    lines += ["", "| players | srs-bench ms per player-s | rtcswarm ms per player-s | ratio | srs-bench RSS MB | rtcswarm RSS MB |",
              "|---|---|---|---|---|---|"]
    for players in players_list:
        def valid(tool):
            return [r for r in rows if r["players"] == players and r["tool"] == tool and not r["void"] and r["playing"] == players]
        bench, swarm = valid("srs-bench"), valid("rtcswarm")
        if not bench or not swarm:
            lines.append(f"| {players} | | | void: a turn saturated SRS or lost players | | |")
            continue
        b = statistics.median(r["cpu_ms_per_player_s"] for r in bench)
        s = statistics.median(r["cpu_ms_per_player_s"] for r in swarm)
        lines.append(f"| {players} | {number(b)} | {number(s)} | {number(s / b)} | "
                     f"{number(statistics.median(r['rss_mb'] for r in bench), 0)} | {number(statistics.median(r['rss_mb'] for r in swarm), 0)} |")
    return "\n".join(lines)


def main():
    args = parse_args()
    srs_url, bench = os.environ["SRS_URL"].rstrip("/"), os.environ["SRS_BENCH"]
    srs_pid = int(os.environ.get("SRS_PID") or srs_get(srs_url, "/api/v1/summaries").get("pid", 0) or 0) or None
    media = os.environ.get("SRS_BENCH_MEDIA", os.path.dirname(os.path.abspath(bench)))
    stream = f"bench{os.getpid()}"
    publisher_log = open(os.path.join(args.out, "publisher.log"), "w")
    publisher = start_publisher(args, bench, media, srs_url, stream, publisher_log)
    rows = []
    try:
        for players in args.players:
            for rep in range(args.reps):
                for tool in ("srs-bench", "rtcswarm"):
                    if publisher.poll() is not None or not publisher_alive(srs_url, stream):
                        publisher.kill()
                        publisher = start_publisher(args, bench, media, srs_url, stream, publisher_log)
                    row = turn(args, tool, players, srs_url, srs_pid, bench, stream,
                               os.path.join(args.out, f"{players}-{rep}-{tool}"))
                    rows.append(row)
                    print(f"{players} players, {tool} turn {rep + 1}/{args.reps}: {row['playing']} playing, "
                          f"{number(row['cpu_ms_per_player_s'])} ms per player-s, RSS {number(row['rss_mb'], 1)} MB, "
                          f"SRS {number(row['srs_cpu_pct'], 1)} %", file=sys.stderr, flush=True)
                    time.sleep(3)
    finally:
        publisher.terminate()
        publisher.wait(timeout=30)
    result = table(rows, args.players)
    with open(os.path.join(args.out, "bench.md"), "w") as f:
        f.write(result + "\n")
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump(rows, f, indent=1)
    print(result)
    print(f"\nwritten to {args.out}/bench.md and bench.json", file=sys.stderr)


if __name__ == "__main__":
    main()
