"""aiortc as one side of a call through a room-protocol Socket.IO server (PROTOCOLS.md
section 3): joins ROOM, and plays the call with aiortc_peer.py run as a child, its
stdin/stdout lines bridged to room messages. Told OTHER_JOINED it offers; given an offer
it answers; trickled {type: candidate, label, id, candidate} messages become the child's
candidate lines, and the other side's bye (or leave) becomes the child's bye.

usage: aiortc_room_peer.py URL ROOM [--other-joined EVENT] [--delay S] [aiortc_peer.py options but --role]

stdout: {"type": "joined", "role": null} once in the room, then the child's summary with
"role" set, as the last line. Logs go to stderr.
"""
import argparse
import asyncio
import json
import os
import sys

import socketio

HERE = os.path.dirname(os.path.abspath(__file__))


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def run(args, peer_args):
    sio = socketio.AsyncClient()
    child = None
    finished = asyncio.Event()
    summary = {"type": "summary", "error": "no call: nobody offered or joined"}

    async def to_child(message):
        child.stdin.write((json.dumps(message) + "\n").encode())
        await child.stdin.drain()

    async def from_child():
        async for line in child.stdout:
            message = json.loads(line)
            if message.get("type") in ("offer", "answer"):
                await sio.emit("message", (args.room, {"type": message["type"], "sdp": message["sdp"]}))
            elif message.get("type") == "summary":
                summary.clear()
                summary.update(message)
        finished.set()

    async def start(role):
        nonlocal child
        child = await asyncio.create_subprocess_exec(
            sys.executable, os.path.join(HERE, "aiortc_peer.py"), "--role", role, *peer_args,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        asyncio.ensure_future(from_child())

    @sio.on("joined")
    async def joined(room, member):
        if room == args.room:
            emit({"type": "joined", "role": None})

    @sio.on(args.other_joined)
    async def other_joined(room, member):
        if room == args.room and child is None:
            await start("offerer")

    @sio.on("message")
    async def message(room, data):
        if room != args.room or not isinstance(data, dict):
            return
        kind = data.get("type")
        if kind == "offer" and child is None:
            await start("answerer")
            await to_child(data)
        elif kind == "answer" and child is not None:
            await to_child(data)
        elif kind == "candidate" and child is not None:
            await to_child({"type": "candidate", "candidate": data.get("candidate"),
                            "sdpMid": data.get("id"), "sdpMLineIndex": data.get("label")})
        elif kind == "bye" and child is not None:
            await to_child({"type": "bye"})

    @sio.on("bye")
    async def bye(room, member):
        if room == args.room and child is not None:
            await to_child({"type": "bye"})

    await asyncio.sleep(args.delay)
    await sio.connect(args.url, transports=["websocket"])
    await sio.emit("join", args.room)
    try:
        await asyncio.wait_for(finished.wait(), args.wait)
    except asyncio.TimeoutError:
        summary["error"] = f"no summary within {args.wait} s"
    await sio.emit("leave", args.room)
    await sio.disconnect()
    emit(summary)
    return 0 if summary.get("error") is None else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("room")
    parser.add_argument("--other-joined", default="other_joined")
    parser.add_argument("--delay", type=float, default=0, help="seconds to wait before joining")
    parser.add_argument("--wait", type=float, default=60, help="seconds to wait for the call's summary")
    args, peer_args = parser.parse_known_args()
    sys.exit(asyncio.run(run(args, peer_args)))


if __name__ == "__main__":
    main()
