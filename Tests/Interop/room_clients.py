"""python-socketio clients playing the room protocol (PROTOCOLS.md section 3) against a
room server, for rtcswarm's interop tests. Prints one JSON object: what each client saw.

usage: room_clients.py URL OTHER_JOINED_EVENT
       room_clients.py hang URL ROOM   (joins ROOM and waits to be killed: a dropped member)
"""
import json
import subprocess
import sys
import time

import socketio

EVENTS = ["joined", "full", "leaved", "bye", "message", "error"]


def client(url, other_joined):
    sio = socketio.Client(reconnection=False)
    log = []
    for name in EVENTS + [other_joined]:
        sio.on(name, handler=(lambda n: lambda *args: log.append([n, *args]))(name))
    sio.connect(url, transports=["websocket"], wait_timeout=5)
    return sio, log


def wait_for(predicate, what, timeout=5.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.01)
    raise SystemExit(f"timed out waiting for {what}")


def has(log, name, count=1):
    return sum(1 for entry in log if entry[0] == name) >= count


def main(url, other):
    a, log_a = client(url, other)
    b, log_b = client(url, other)
    c, log_c = client(url, other)
    ids = {"a": a.get_sid(), "b": b.get_sid(), "c": c.get_sid()}

    a.emit("join", "r1")
    wait_for(lambda: has(log_a, "joined"), "a joined")
    b.emit("join", "r1")
    wait_for(lambda: has(log_b, "joined") and has(log_a, other), "b joined, a told")
    c.emit("join", "r1")
    wait_for(lambda: has(log_c, "full"), "c full")

    a.emit("message", ("r1", {"type": "offer", "sdp": "v=0\r\n"}))
    wait_for(lambda: has(log_b, "message"), "offer relayed")
    b.emit("message", ("r1", {"type": "answer", "sdp": "v=0\r\n"}))
    b.emit("message", ("r1", {"type": "candidate", "label": 0, "id": "0",
                              "candidate": "candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host"}))
    wait_for(lambda: has(log_a, "message", 2), "answer and candidate relayed")
    c.emit("message", ("r1", {"type": "offer", "sdp": "intruder"}))
    wait_for(lambda: has(log_c, "error"), "non-member refused")
    b.emit("leave", "r1")
    wait_for(lambda: has(log_b, "leaved") and has(log_a, "bye"), "leave")

    # A member that vanishes without leave (its process is killed).
    d, log_d = client(url, other)
    d.emit("join", "r2")
    wait_for(lambda: has(log_d, "joined"), "d joined r2")
    hanger = subprocess.Popen([sys.executable, __file__, "hang", url, "r2"], stdout=subprocess.PIPE, text=True)
    dropped_id = hanger.stdout.readline().strip()
    wait_for(lambda: has(log_d, other), "the hanger joined r2")
    hanger.kill()
    hanger.wait()
    wait_for(lambda: has(log_d, "bye"), "bye after the drop", timeout=10)

    # An oversized frame closes only its own connection.
    e, log_e = client(url, other)
    e.emit("join", "r3")
    wait_for(lambda: has(log_e, "joined"), "e joined r3")
    e.emit("message", ("r3", "x" * 200_000))
    wait_for(lambda: not e.connected, "the server closed the oversized sender")
    d.emit("join", "r4")
    wait_for(lambda: has(log_d, "joined", 2), "others still served")

    for sio in (a, b, c, d):
        sio.disconnect()
    print(json.dumps({"ids": ids, "dropped": dropped_id, "a": log_a, "b": log_b, "c": log_c, "d": log_d,
                      "e_connected": e.connected}))


def hang(url, room):
    sio, log = client(url, "other_joined")
    print(sio.get_sid(), flush=True)
    sio.emit("join", room)
    time.sleep(60)


if __name__ == "__main__":
    if sys.argv[1] == "hang":
        hang(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1], sys.argv[2])
