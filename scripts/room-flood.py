#!/usr/bin/env python3
"""Measures the built-in room server's memory under two hostile clients (issue 21 item 9).

Starts `rtcswarm serve` on a free loopback port and prints its resident memory (VmRSS)
before and after each flood:
  1. slow reader: one member of a room never reads while the other sends 60 KB messages
     at its rate limit for --seconds;
  2. pipelined /stats: --requests GET /stats on one connection whose answers are never read;
  3. reconnect flood (item 11): for --seconds, a client connects, joins, sends 200 messages
     (its connection's whole burst) and reconnects; prints the messages relayed per second.
Then prints the server's /stats rejects (slow_reader counts the connections it dropped).

usage: scripts/room-flood.py [--binary .build/debug/rtcswarm] [--seconds 30] [--requests 50000] [serve flags...]
"""
import argparse
import base64
import json
import os
import socket
import subprocess
import time


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def websocket(port):
    """A plain-WebSocket room client (/ws), upgraded; frames are sent masked (RFC 6455 5.3)."""
    connection = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += connection.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:80]
    return connection


def send_text(connection, value):
    payload = json.dumps(value).encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    elif len(payload) < 65536:
        header += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    else:
        header += bytes([0x80 | 127]) + len(payload).to_bytes(8, "big")
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    connection.sendall(header + mask + masked)


def stats(port):
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(b"GET /stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := connection.recv(65536):
            data += chunk
    return json.loads(data.split(b"\r\n\r\n", 1)[1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/debug/rtcswarm")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--requests", type=int, default=50_000)
    options, serve_flags = parser.parse_known_args()
    server = subprocess.Popen([options.binary, "serve", "--listen", "127.0.0.1:0", "--capacity", "3"] + serve_flags,
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = int(line.split("http://127.0.0.1:")[1].split()[0])
        time.sleep(0.5)
        print(f"idle: RSS {rss_mb(server.pid):.1f} MB")

        reader, sender = websocket(port), websocket(port)
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        send_text(reader, {"event": "join", "room": "flood"})
        send_text(sender, {"event": "join", "room": "flood"})
        blob = "x" * 60_000
        end = time.monotonic() + options.seconds
        sent = 0
        while time.monotonic() < end:
            send_text(sender, {"event": "message", "room": "flood", "data": blob})
            sent += 1
            time.sleep(0.011)  # under the default 100 messages/s per connection
        print(f"slow reader: {sent} messages of 60 KB in {options.seconds:.0f} s: RSS {rss_mb(server.pid):.1f} MB")
        reader.close()
        sender.close()
        time.sleep(1)
        print(f"slow reader, 1 s after: RSS {rss_mb(server.pid):.1f} MB; rejects {json.dumps(stats(port)['rejects'])}")

        pipeliner = socket.create_connection(("127.0.0.1", port))
        pipeliner.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        pipeliner.settimeout(5)
        request = b"GET /stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        written = 0
        try:
            for _ in range(options.requests // 1000):
                pipeliner.sendall(request * 1000)
                written += 1000
        except OSError as error:
            print(f"pipelined /stats: the server stopped reading after {written} requests ({error.__class__.__name__})")
        time.sleep(1)
        print(f"pipelined /stats: {written} requests never read: RSS {rss_mb(server.pid):.1f} MB; "
              f"{stats(port)['connections'] - 1} connection(s) besides this check")
        pipeliner.close()
        time.sleep(1)
        print(f"pipelined /stats, 1 s after: RSS {rss_mb(server.pid):.1f} MB")

        listener = websocket(port)
        send_text(listener, {"event": "join", "room": "reconnect"})
        relayed_before = stats(port)["messages_relayed"]
        end = time.monotonic() + options.seconds
        reconnects = 0
        while time.monotonic() < end:
            flooder = websocket(port)
            send_text(flooder, {"event": "join", "room": "reconnect"})
            for _ in range(200):
                send_text(flooder, {"event": "message", "room": "reconnect", "data": "x"})
            flooder.close()
            reconnects += 1
            listener.setblocking(False)
            try:
                while listener.recv(1 << 20):
                    pass
            except BlockingIOError:
                pass
            listener.setblocking(True)
        relayed = stats(port)["messages_relayed"] - relayed_before
        print(f"reconnect flood: {reconnects} reconnects in {options.seconds:.0f} s relayed {relayed / options.seconds:.0f} messages/s")
        print("rejects:", json.dumps(stats(port)["rejects"], sort_keys=True))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
